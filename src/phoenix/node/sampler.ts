// Uniform sampling of workers for probe placement, with a per-worker mark array so a sample
// (and placement plugins) can tell "already chosen this round" in O(1) without a set.
import type { Rng } from "../../random/rng.js";

export class WorkerSampler {
  /** marker[w] === mark: worker w is marked in the current round (newMark). */
  readonly marker: Int32Array;
  mark = 0;

  constructor(workers: number, private readonly rng: Rng) {
    this.marker = new Int32Array(workers);
  }

  /** Starts a new marking round; returns its mark. */
  newMark(): number {
    return ++this.mark;
  }

  /** Up to k distinct members of xs, uniformly (all of them, shuffled, when k >= xs.length). */
  sample(xs: ArrayLike<number>, k: number): number[] {
    const m = xs.length;
    if (m === 0) return [];
    if (k >= m) return this.rng.shuffle(Array.from(xs));
    const out: number[] = [];
    const mark = this.newMark();
    if (k * 3 < m) {
      // sparse: rejection sampling on the marks
      while (out.length < k) {
        const w = xs[this.rng.int(0, m - 1)];
        if (this.marker[w] !== mark) {
          this.marker[w] = mark;
          out.push(w);
        }
      }
      return out;
    }
    // dense: a partial Fisher-Yates shuffle of a copy
    const copy = Array.from(xs);
    for (let i = 0; i < k; i++) {
      const r = i + this.rng.int(0, m - 1 - i);
      const t = copy[i]; copy[i] = copy[r]; copy[r] = t;
      out.push(copy[i]);
    }
    return out;
  }
}

/** Repeats xs round-robin until it holds `count` entries (fewer eligible workers than probes). */
export function fillRoundRobin(xs: number[], count: number): number[] {
  for (let k = 0; xs.length < count; k++) xs.push(xs[k]);
  return xs;
}
