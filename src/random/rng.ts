// Deterministic random numbers: xoshiro128** seeded through splitmix32. Same seed, same
// stream on every platform (32-bit integer math only, no Math.random).

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    let s = (Math.floor(seed) >>> 0) ^ 0x9e3779b9;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next(); this.b = next(); this.c = next(); this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The generator's state (four 32-bit words and the spare normal), to continue the stream elsewhere. */
  getState(): { words: number[]; spareNormal: number | null } {
    return { words: [this.a, this.b, this.c, this.d], spareNormal: this.spareNormal };
  }

  /** Continues a stream from getState() (the words checked: 32-bit unsigned, not all 0). */
  static fromState(state: { words: readonly number[]; spareNormal: number | null }): Rng {
    const w = state.words;
    if (!(Array.isArray(w) && w.length === 4 && w.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff) && w.some((x) => x !== 0))) throw new RangeError("Rng state: expected four 32-bit unsigned words, not all 0");
    if (!(state.spareNormal === null || Number.isFinite(state.spareNormal))) throw new RangeError("Rng state: spareNormal must be null or finite");
    const r = new Rng(0);
    [r.a, r.b, r.c, r.d] = w;
    r.spareNormal = state.spareNormal;
    return r;
  }

  /** A new independent stream derived from this one (for sub-generators). */
  fork(): Rng {
    return new Rng(this.u32());
  }

  u32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c ^= this.a; this.d ^= this.b; this.b ^= this.c; this.a ^= this.d;
    this.c = (this.c ^ t) >>> 0;
    this.d = rotl(this.d, 11);
    this.a >>>= 0; this.b >>>= 0;
    return r;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.u32() >>> 5, lo = this.u32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** Standard normal by Box-Muller (caches the second value). */
  normal(mean = 0, std = 1): number {
    if (this.spareNormal !== null) {
      const z = this.spareNormal;
      this.spareNormal = null;
      return mean + std * z;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return mean + std * r * Math.cos(2 * Math.PI * v);
  }

  exponential(mean: number): number {
    let u = 0;
    while (u === 0) u = this.next();
    return -Math.log(u) * mean;
  }

  /** Pareto with scale xm and shape alpha (heavy tail for alpha <= 2). */
  pareto(xm: number, alpha: number): number {
    let u = 0;
    while (u === 0) u = this.next();
    return xm / Math.pow(u, 1 / alpha);
  }

  lognormal(mu: number, sigma: number): number {
    return Math.exp(this.normal(mu, sigma));
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = xs[i]; xs[i] = xs[j]; xs[j] = t;
    }
    return xs;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
