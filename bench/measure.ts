// Timing one case with tinybench. A fast call (a floor pass over 200 numbers takes ~100 ns)
// is far below the timer's resolution, so each sample runs the call `reps` times, with reps
// chosen once from a calibration so a sample lasts about SAMPLE_MS; the reported time is the
// sample median divided by reps. Slow calls get reps = 1 and few samples.
//
// Several rounds (bench/run.ts --rounds) measure every case once per round, so a ratio is
// the median of per-round ratios between cases measured seconds apart: load that drifts over
// the run moves numerator and denominator together instead of skewing one of them.
//
// The clock is the process's CPU time (user + system, microsecond resolution), not wall
// time: the benchmark machine is shared, and a call longer than a scheduler slice would
// otherwise be charged for the time other processes ran. On an idle machine the two agree
// (the kernels are single-threaded; V8's GC and compiler threads are counted, as they are
// work the call caused).
import { Bench } from "tinybench";

const SAMPLE_MS = 2;
const WARMUP_MS = 150;
const WARMUP_CALLS = 30;
const CALIBRATE_MS = 20;

export interface Measurement {
  /** Median time per call, milliseconds. */
  medianMs: number;
  /** Samples taken and calls per sample. */
  samples: number;
  reps: number;
  /** Relative margin of error of the sample mean, percent. */
  rme: number;
  /** With several rounds: each round's median (the reported median is their median). */
  rounds?: number[];
}

export interface Budget {
  /** Time budget per case, milliseconds (tinybench `time`). */
  timeMs: number;
  /** Minimum samples (tinybench `iterations`). */
  minSamples: number;
}

/** Milliseconds of CPU time used by this process so far. */
export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs the call until the JIT (and WASM tier-up) has had its chance: steady state is measured. */
function warmUp(call: () => unknown): void {
  const start = cpuNow();
  for (let calls = 0; calls < WARMUP_CALLS && cpuNow() - start < WARMUP_MS; calls++) call();
}

function calibrate(call: () => unknown): number {
  warmUp(call);
  let calls = 0;
  const start = cpuNow();
  let now = start;
  while (now - start < CALIBRATE_MS || calls < 2) {
    call();
    calls++;
    now = cpuNow();
  }
  const perCall = (now - start) / calls;
  return Math.max(1, Math.round(SAMPLE_MS / perCall));
}

/**
 * Measures one case. `knownReps` (from an earlier round) skips the calibration: a short
 * warm-up is enough because the JIT already saw the call.
 */
export async function measure(name: string, call: () => unknown, budget: Budget, knownReps?: number): Promise<Measurement> {
  let reps: number;
  if (knownReps === undefined) reps = calibrate(call);
  else {
    reps = knownReps;
    for (let i = 0; i < 3; i++) call();
  }
  let sink: unknown;
  const bench = new Bench({
    time: budget.timeMs,
    iterations: budget.minSamples,
    warmupTime: Math.min(50, budget.timeMs / 4),
    warmupIterations: 1,
    throws: true,
    now: cpuNow,
  });
  bench.add(name, () => {
    for (let i = 0; i < reps; i++) sink = call();
  });
  await bench.run();
  void sink;
  const r = bench.tasks[0].result;
  if (r.state !== "completed") throw new Error(`${name}: ${r.state}`);
  return { medianMs: r.latency.p50 / reps, samples: bench.tasks[0].runs, reps, rme: r.latency.rme };
}

/** A slow call a fixed number of times (CPU time): the median and the individual runs. */
export function measureRuns(call: () => unknown, runs: { warmup: number; samples: number }): Measurement & { runsMs: number[] } {
  let sink: unknown;
  for (let i = 0; i < runs.warmup; i++) sink = call();
  const times: number[] = [];
  for (let i = 0; i < runs.samples; i++) {
    const t0 = cpuNow();
    sink = call();
    times.push(cpuNow() - t0);
  }
  void sink;
  const sorted = [...times].sort((a, b) => a - b);
  const m = sorted.length;
  const medianMs = m % 2 ? sorted[(m - 1) / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
  const mean = times.reduce((a, b) => a + b, 0) / m;
  const sd = m > 1 ? Math.sqrt(times.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1)) : 0;
  return { medianMs, samples: m, reps: 1, rme: m > 1 ? (100 * 1.96 * sd) / Math.sqrt(m) / mean : 0, runsMs: times };
}

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const m = sorted.length;
  return m % 2 ? sorted[(m - 1) / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
}

/** Several rounds of one case: the median of the round medians, samples summed. */
export function combineRounds(rounds: Measurement[]): Measurement {
  if (rounds.length === 1) return rounds[0];
  return {
    medianMs: median(rounds.map((r) => r.medianMs)),
    samples: rounds.reduce((a, r) => a + r.samples, 0),
    reps: rounds[0].reps,
    rme: median(rounds.map((r) => r.rme)),
    rounds: rounds.map((r) => r.medianMs),
  };
}
