// The busy-time sampler: integrals over time of piecewise-constant values (resources in use,
// dominant shares, busy workers), advanced at every instant before its events change them.
// Example: read(0) = 2 on [0, 3), then 5 on [3, 4): advance(3), change, advance(4) -> totals[0] = 11.

export class TimeIntegral {
  /** totals[i] = integral of read(i) over [0, last advanced time]. */
  readonly totals: Float64Array;
  private last = 0;

  /** `read(i)` is value i now (constant since the last advance). */
  constructor(size: number, private readonly read: (i: number) => number) {
    this.totals = new Float64Array(size);
  }

  /** The time integrated up to. */
  get time(): number {
    return this.last;
  }

  /** Adds value * (t - last) to every total (nothing when t <= last). */
  advance(t: number): void {
    const dt = t - this.last;
    if (!(dt > 0)) return;
    const n = this.totals.length;
    for (let i = 0; i < n; i++) this.totals[i] += this.read(i) * dt;
    this.last = t;
  }
}
