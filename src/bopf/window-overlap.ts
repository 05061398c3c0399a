// The resource condition with the exact overlap of windows (the authors' simulator, IRFsim's
// `BPFScheduler.resourceCond`): a new LQ fits if at every instant inside one of its burst
// windows that burst's rate plus the rates of the hard queues' bursts whose windows contain
// that instant stay within the capacity (its own bursts are checked one by one, not summed). The admission control's own condition sums the hard
// queues' largest rates instead (conservative: whatever fits there fits here).
// Windows are half-open, [start, start + window). One sweep over the sorted window ends:
// O(B log B) for B bursts in all, times the new LQ's bursts open at once (one, for a series
// whose windows do not overlap).
// Example: C = 1; a hard LQ at rate 1 in [0, 25), [150, 175), [300, 325). A new LQ at rate 1
// in [100, 125), [210, 235) fits (none of its windows meets a hard one); with a third window
// [320, 345) it does not (it meets [300, 325) in [320, 325)). The max-rate condition refuses
// both (1 + 1 > 1).
import type { BurstSpec } from "../policy/model.js";

interface Edge { t: number; rate: ArrayLike<number>; sign: 1 | -1; fresh: boolean }

/** True if `fresh`'s bursts fit on top of the `hard` queues' bursts at every instant of their windows. */
export function windowsFit(capacity: ArrayLike<number>, hard: ReadonlyArray<readonly BurstSpec[]>, fresh: readonly BurstSpec[], slack = 1e-9): boolean {
  const k = capacity.length;
  const edges: Edge[] = [];
  const add = (b: BurstSpec, isFresh: boolean) => {
    if (!(b.window > 0)) return;
    const rate = b.volume.map((v) => v / b.window);
    edges.push({ t: b.start, rate, sign: 1, fresh: isFresh }, { t: b.start + b.window, rate, sign: -1, fresh: isFresh });
  };
  for (const q of hard) for (const b of q) add(b, false);
  for (const b of fresh) add(b, true);
  // at one instant, windows that end leave before windows that start enter (half-open)
  edges.sort((a, b) => a.t - b.t || a.sign - b.sign);
  const sum = new Float64Array(k);
  const open = new Set<ArrayLike<number>>();
  for (let i = 0; i < edges.length; ) {
    const t = edges[i].t;
    for (; i < edges.length && edges[i].t === t; i++) {
      const e = edges[i];
      if (!e.fresh) for (let r = 0; r < k; r++) sum[r] += e.sign * e.rate[r];
      else if (e.sign > 0) open.add(e.rate);
      else open.delete(e.rate);
    }
    for (const rate of open) for (let r = 0; r < k; r++) if (sum[r] + rate[r] > capacity[r] * (1 + slack)) return false;
  }
  return true;
}
