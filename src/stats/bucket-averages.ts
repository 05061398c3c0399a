// Time-bucketed averages of piecewise-constant values: point j of series i is the average of
// read(i) over [t[j], t[j] + interval), so short bursts are not lost between samples (no
// aliasing). Advanced at every instant before its events change the values, like TimeIntegral.
// Example: interval 2, read(0) = 1 on [0, 1) then 3: advance(4), finish(4) -> t [0, 2], values[0] [2, 3].

export class BucketAverages {
  /** Start time of every point. */
  readonly t: number[] = [];
  /** values[i][j]: average of read(i) over point j. */
  readonly values: number[][];
  private start = 0;
  private last = 0;
  private readonly acc: Float64Array;

  /**
   * `read(i)` is value i now; at most `maxPoints` points (one loop turn each): `fail(to)`
   * builds the error thrown when advancing to `to` would take more, or could not move on
   * (start + interval == start far out in time).
   */
  constructor(
    private readonly size: number,
    private readonly interval: number,
    private readonly read: (i: number) => number,
    private readonly maxPoints: number,
    private readonly fail: (to: number) => Error,
  ) {
    this.values = Array.from({ length: size }, () => []);
    this.acc = new Float64Array(size);
  }

  /** Integrates the values from the last advance up to `to` (nothing when to <= last). */
  advance(to: number): void {
    let from = this.last;
    if (!(from < to)) return;
    if (!((to - this.start) / this.interval <= this.maxPoints && this.start + this.interval > this.start)) throw this.fail(to);
    const n = this.size;
    while (from < to) {
      const bucketEnd = this.start + this.interval;
      const segEnd = Math.min(to, bucketEnd);
      for (let i = 0; i < n; i++) this.acc[i] += this.read(i) * (segEnd - from);
      from = segEnd;
      if (segEnd === bucketEnd) {
        this.flush(this.interval);
        this.start = bucketEnd;
      }
    }
    this.last = to;
  }

  /** Advances to `end` and closes the partial last point (or the only one, for an empty run). */
  finish(end: number): void {
    this.advance(end);
    if (end > this.start || this.t.length === 0) this.flush(end - this.start);
  }

  private flush(length: number): void {
    this.t.push(this.start);
    for (let i = 0; i < this.size; i++) {
      this.values[i].push(length > 0 ? this.acc[i] / length : this.read(i));
      this.acc[i] = 0;
    }
  }
}
