// Measures a pool's share of capacity over time from what really ran: every `process` call records
// [start, end) per tenant, and the time-weighted dominant share of a tenant over a window is the
// integral of (its running demand / capacity, maximised over resources) divided by the window.
export interface Run { tenant: string; start: number; end: number }

export class ShareMeter {
  readonly runs: Run[] = [];
  private readonly open = new Map<number, Run>();
  private next = 0;

  /** Wraps a job body: the recorded interval is exactly the body's execution. */
  async around<T>(tenant: string, body: () => Promise<T>): Promise<T> {
    const key = this.next++;
    const run: Run = { tenant, start: performance.now(), end: NaN };
    this.open.set(key, run);
    try { return await body(); } finally {
      run.end = performance.now();
      this.open.delete(key);
      this.runs.push(run);
    }
  }

  /** Running now, per tenant. */
  runningNow(tenant: string): number {
    let n = 0;
    for (const r of this.open.values()) if (r.tenant === tenant) n++;
    return n;
  }

  /** Time-weighted dominant share per tenant over [from, to) (ms, performance.now()). */
  dominantShares(from: number, to: number, demand: Record<string, number[]>, capacity: number[]): Record<string, number> {
    // usage per tenant per resource is piecewise constant: integrate each resource, then take the
    // dominant resource of the integrated usage (each tenant's jobs have one demand vector, so the
    // dominant resource is the same at every instant and this equals the integral of the dominant share)
    const out: Record<string, number> = {};
    for (const [tenant, d] of Object.entries(demand)) {
      let busy = 0; // job-ms inside the window
      for (const r of this.runs) if (r.tenant === tenant) busy += Math.max(0, Math.min(r.end, to) - Math.max(r.start, from));
      out[tenant] = Math.max(...d.map((x, k) => x / capacity[k])) * busy / (to - from);
    }
    return out;
  }

  /** The start time of each tenant's n-th job (1-based), in start order. */
  nthStart(tenant: string, n: number): number {
    const starts = this.runs.filter((r) => r.tenant === tenant).map((r) => r.start).sort((a, b) => a - b);
    return starts[n - 1] ?? NaN;
  }
}
