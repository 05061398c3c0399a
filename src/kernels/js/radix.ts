// Pure-TS twin of assembly/util/radix.ts: stable LSD byte radix sort of indices by
// non-negative f64 keys, producing the (key, index) order. Same passes, same skips.

const SMALL = 32;

export class RadixScratch {
  ka = new Float64Array(0);
  kb = new Float64Array(0);
  ia = new Uint32Array(0);
  ib = new Uint32Array(0);
  readonly hist = new Uint32Array(8 * 256);
  ensure(n: number): void {
    if (this.ka.length >= n) return;
    const cap = Math.max(n, this.ka.length * 2);
    this.ka = new Float64Array(cap);
    this.kb = new Float64Array(cap);
    this.ia = new Uint32Array(cap);
    this.ib = new Uint32Array(cap);
  }
}

export function sortIndicesByKey(n: number, keys: Float64Array, outIdx: Uint32Array, s: RadixScratch): void {
  if (n <= SMALL) {
    for (let i = 0; i < n; i++) {
      const ki = keys[i];
      let j = i - 1;
      while (j >= 0 && keys[outIdx[j]] > ki) {
        outIdx[j + 1] = outIdx[j];
        j--;
      }
      outIdx[j + 1] = i;
    }
    return;
  }
  s.ensure(n);
  let ka = s.ka, kb = s.kb, ia = s.ia, ib = s.ib;
  const hist = s.hist;
  hist.fill(0);
  for (let i = 0; i < n; i++) {
    ka[i] = keys[i];
    ia[i] = i;
  }
  let bytesA = new Uint8Array(ka.buffer, ka.byteOffset, n * 8);
  for (let i = 0; i < n; i++) {
    const o = i * 8;
    for (let d = 0; d < 8; d++) hist[(d << 8) + bytesA[o + d]]++;
  }
  const first = new Uint8Array(ka.buffer, ka.byteOffset, 8).slice();
  for (let d = 0; d < 8; d++) {
    const h = d << 8;
    if (hist[h + first[d]] === n) continue;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = hist[h + b];
      hist[h + b] = sum;
      sum += c;
    }
    bytesA = new Uint8Array(ka.buffer, ka.byteOffset, n * 8);
    for (let i = 0; i < n; i++) {
      const b = h + bytesA[i * 8 + d];
      const pos = hist[b]++;
      kb[pos] = ka[i];
      ib[pos] = ia[i];
    }
    let t = ka; ka = kb; kb = t;
    const u = ia; ia = ib; ib = u;
  }
  outIdx.set(ia.subarray(0, n));
}
