// The regions of a problem of any kernel (each kernel's table is in its contract), with the
// 4 GiB limit checked before anything is allocated.
import type { KernelName } from "./backend.js";
import { CONTRACTS } from "./contracts.js";
import { InputError } from "../errors.js";
import { MAX_BYTES, formatBytes, regionBytes, type Region, type RegionTable } from "./region-table.js";

/** A kernel's region table. */
export function regionTable(kernel: KernelName): RegionTable<unknown> {
  return CONTRACTS[kernel].regions as RegionTable<unknown>;
}

/**
 * The regions of a problem and their total size in bytes; an InputError on the table's field
 * when they alone exceed 4 GiB (checked in floating point, before any i32 size arithmetic).
 */
export function regionsOf(kernel: KernelName, a: number, b: number): { regions: Record<string, Region>; bytes: number } {
  const regions = regionTable(kernel).regions(a, b) as unknown as Record<string, Region>;
  let bytes = 0;
  for (const name in regions) bytes += regionBytes(regions[name]);
  if (!(bytes <= MAX_BYTES)) tooLarge(kernel, a, b, bytes);
  return { regions, bytes };
}

export function tooLarge(kernel: KernelName, a: number, b: number, bytes: number, why = "the limit is 4 GiB"): never {
  const t = regionTable(kernel);
  throw new InputError(t.field, `problem too large for memory (${t.describe(a, b)} needs ${formatBytes(bytes)}; ${why})`);
}
