import { ldf, stf, ldu, stu } from "./mem";

// Stable LSD radix sort of indices by non-negative finite f64 keys (their IEEE bit
// patterns order like the numbers). Byte digits, one histogram pass for all eight digits,
// digits on which every key agrees are skipped. Ties keep index order, so the result is
// the total order (key, index): the JS twin in src/kernels/radix.ts produces the same.

const SMALL: i32 = 32;
export const RADIX_HIST_BYTES: usize = 8 * 256 * 4;

/** Bytes of scratch for sorting n keys: two key buffers and two index buffers + histogram. */
export function radixScratchBytes(n: i32): usize {
  return (<usize>n << 3) * 2 + (<usize>n << 2) * 2 + RADIX_HIST_BYTES;
}

/**
 * Writes into `outIdx` the indices 0..n-1 ordered by keys[i] (then by i).
 * `keys` is read only. `scratch` holds radixScratchBytes(n) bytes.
 */
export function sortIndicesByKey(n: i32, keys: usize, outIdx: usize, scratch: usize): void {
  if (n <= SMALL) {
    for (let i = 0; i < n; i++) {
      const ki = ldf(keys, i);
      let j = i - 1;
      while (j >= 0 && ldf(keys, <i32>ldu(outIdx, j)) > ki) {
        stu(outIdx, j + 1, ldu(outIdx, j));
        j--;
      }
      stu(outIdx, j + 1, <u32>i);
    }
    return;
  }
  let ka = scratch;
  let kb = ka + (<usize>n << 3);
  let ia = kb + (<usize>n << 3);
  let ib = ia + (<usize>n << 2);
  const hist = ib + (<usize>n << 2);
  memory.fill(hist, 0, RADIX_HIST_BYTES);
  for (let i = 0; i < n; i++) {
    const bits = reinterpret<u64>(ldf(keys, i));
    store<u64>(ka + (<usize>i << 3), bits);
    stu(ia, i, <u32>i);
    for (let d = 0; d < 8; d++) {
      const h = hist + (<usize>((d << 8) + <i32>((bits >> (<u64>d << 3)) & 0xff)) << 2);
      store<u32>(h, load<u32>(h) + 1);
    }
  }
  const first = load<u64>(ka);
  for (let d = 0; d < 8; d++) {
    const hd = hist + (<usize>(d << 8) << 2);
    const shift = <u64>d << 3;
    if (ldu(hd, <i32>((first >> shift) & 0xff)) == <u32>n) continue; // all keys share this digit
    let sum: u32 = 0;
    for (let b = 0; b < 256; b++) {
      const c = ldu(hd, b);
      stu(hd, b, sum);
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const bits = load<u64>(ka + (<usize>i << 3));
      const b = <i32>((bits >> shift) & 0xff);
      const pos = ldu(hd, b);
      stu(hd, b, pos + 1);
      store<u64>(kb + (<usize>pos << 3), bits);
      stu(ib, <i32>pos, ldu(ia, i));
    }
    let t = ka; ka = kb; kb = t;
    t = ia; ia = ib; ib = t;
  }
  memory.copy(outIdx, ia, <usize>n << 2);
}
