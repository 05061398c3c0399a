// The output pass of DRF's level path (assembly/drf/output.ts): every queue's lambda from the
// saturation levels, then allocation = lambda * D and dominant share = lambda * delta.
import type { DrfScratch } from "./scratch.js";

/** Masks up to this K index a table of 2^K smallest levels (the WASM output pass's limit). */
const TABLE_MAX_K = 8;

/**
 * lambda from the levels: 0 without demand, 1 if the key is <= T (the smallest level among
 * the queue's resources), else min(1, T * rate); then allocation and dominant share.
 */
export function levelsOutputs(
  n: number, k: number, dem: Float64Array, s: DrfScratch,
  outLambda: Float64Array, outAlloc: Float64Array, outDs: Float64Array,
): void {
  const { mask, levels, table, endKey, rate, delta } = s;
  const useTable = k <= TABLE_MAX_K;
  if (useTable) {
    table[0] = Infinity;
    for (let m = 1; m < 1 << k; m++) table[m] = Math.min(table[m & (m - 1)], levels[31 - Math.clz32(m & -m)]);
  }
  for (let i = 0; i < n; i++) {
    let t = Infinity;
    if (useTable) t = table[mask[i]];
    else for (let msk = mask[i]; msk !== 0; msk &= msk - 1) t = Math.min(t, levels[31 - Math.clz32(msk & -msk)]);
    const dl = delta[i];
    const lam = dl === 0 ? 0 : endKey[i] <= t ? 1 : Math.min(1, t * rate[i]);
    outLambda[i] = lam;
    outDs[i] = lam * dl;
    const b = i * k;
    for (let r = 0; r < k; r++) outAlloc[b + r] = lam * dem[b + r];
  }
}
