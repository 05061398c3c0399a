// Pure-TS twin of assembly/srpt.ts (SRPT among BoPF soft LQs; algorithm, worked example and
// edge values are documented there). Same operations in the same order, so both backends
// agree exactly.
import { Status } from "../status.js";
import { RadixScratch, sortIndicesByKey } from "./radix.js";
import { isFiniteF64 } from "./finite.js";

export class SrptScratch {
  errIndex = -1;
  keys = new Float64Array(0);
  order = new Uint32Array(0);
  left = new Float64Array(0);
  readonly radix = new RadixScratch();
  ensure(n: number, k: number): void {
    if (this.keys.length < n) {
      const c = Math.max(n, this.keys.length * 2);
      this.keys = new Float64Array(c);
      this.order = new Uint32Array(c);
    }
    if (this.left.length < k) this.left = new Float64Array(k);
    this.radix.ensure(n);
  }
}


export function srptKernel(
  n: number, k: number,
  cap: Float64Array, avail: Float64Array, want: Float64Array, rate: Float64Array, remaining: Float64Array,
  outLambda: Float64Array, outAlloc: Float64Array,
  s: SrptScratch,
): Status {
  s.ensure(n, k);
  const { keys, order, left } = s;
  const fail = (code: Status, index: number): Status => {
    s.errIndex = index;
    return code;
  };
  for (let r = 0; r < k; r++) {
    const c = cap[r];
    if (!(c > 0) || !isFiniteF64(c)) return fail(Status.Capacity, r);
  }
  for (let r = 0; r < k; r++) {
    const a = avail[r];
    if (!(a >= 0) || !isFiniteF64(a)) return fail(Status.Available, r);
    left[r] = a;
  }
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let key = 0;
    for (let r = 0; r < k; r++) {
      const w = want[base + r];
      if (!(w >= 0) || !isFiniteF64(w)) return fail(Status.Demand, base + r);
      const rt = rate[base + r];
      if (!(rt >= 0) || !isFiniteF64(rt)) return fail(Status.Rate, base + r);
      const v = remaining[base + r];
      if (!(v >= 0) || !isFiniteF64(v)) return fail(Status.Volume, base + r);
      key = Math.max(key, v / cap[r]);
    }
    keys[i] = key;
  }
  sortIndicesByKey(n, keys, order, s.radix);

  for (let j = 0; j < n; j++) {
    const i = order[j];
    const base = i * k;
    let lam = 1.0;
    let any = false;
    for (let r = 0; r < k; r++) {
      const w = want[base + r];
      if (!(w > 0)) continue;
      any = true;
      lam = Math.min(lam, Math.min(rate[base + r] / w, left[r] / w));
    }
    if (!any) lam = 0;
    outLambda[i] = lam;
    for (let r = 0; r < k; r++) {
      const a = lam * want[base + r];
      outAlloc[base + r] = a;
      left[r] = Math.max(0.0, left[r] - a);
    }
  }
  return Status.OK;
}
