/** An invariant of the simulation broke (docs/policies/simulator.md): names the time, queue and job involved. */
export class SimulationError extends Error {
  readonly time: number;
  readonly queue?: string;
  readonly job?: string;
  constructor(problem: string, where: { time: number; queue?: string; job?: string }) {
    const parts = [`t=${where.time}`];
    if (where.queue !== undefined) parts.push(`queue ${where.queue}`);
    if (where.job !== undefined) parts.push(`job ${where.job}`);
    super(`simulation invariant violated at ${parts.join(", ")}: ${problem}`);
    this.name = "SimulationError";
    this.time = where.time;
    this.queue = where.queue;
    this.job = where.job;
  }
}
