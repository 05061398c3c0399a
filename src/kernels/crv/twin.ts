// Pure-TS twin of assembly/crv.ts: Phoenix CRV / SRPT reordering of all worker queues of a
// round. Same algorithm, same comparisons in the same order (see the worked example there),
// so both backends produce identical orders, slacks and counts.
//
// Modes per queue: 0 keep (FIFO), 1 SRPT (shortest estimated runtime first), 2 CRV (tasks
// whose score equals the queue's maximal score > 0 first, the rest in SRPT order). A task
// overtaken by a task that was behind it gains one slack per round; a task with slack >=
// slackThreshold is never overtaken. Ties keep the current order.
import { Status } from "../status.js";
import { isFiniteF64 } from "../util/finite.js";

export class CrvScratch {
  errIndex = -1;
  reordered = 0;
  newPos = new Uint32Array(0);
  heap = new Uint32Array(0);
  ensure(t: number): void {
    if (this.newPos.length < t) {
      const c = Math.max(t, this.newPos.length * 2);
      this.newPos = new Uint32Array(c);
      this.heap = new Uint32Array(c);
    }
  }
}


export function crvReorderKernel(
  q: number, t: number,
  offsets: Uint32Array, score: Float64Array, runtime: Float64Array, slack: Int32Array, mode: Uint8Array,
  slackThreshold: number,
  outOrder: Uint32Array, outSlack: Int32Array,
  s: CrvScratch,
): Status {
  s.reordered = 0;
  const fail = (code: Status, index: number): Status => {
    s.errIndex = index;
    return code;
  };
  if (slackThreshold < 0) return fail(Status.CrvSlack, -1);
  if (offsets[0] !== 0) return fail(Status.CrvOffset, 0);
  for (let j = 0; j < q; j++) {
    if (mode[j] > 2) return fail(Status.CrvMode, j);
    if (offsets[j + 1] < offsets[j] || offsets[j + 1] > t) return fail(Status.CrvOffset, j + 1);
  }
  if (offsets[q] !== t) return fail(Status.CrvOffset, q);
  for (let i = 0; i < t; i++) {
    const x = score[i];
    if (!(x >= 0) || !isFiniteF64(x)) return fail(Status.CrvScore, i);
    const r = runtime[i];
    if (!(r >= 0) || !isFiniteF64(r)) return fail(Status.CrvRuntime, i);
    if (slack[i] < 0) return fail(Status.CrvSlack, i);
  }

  s.ensure(t);
  const { newPos, heap } = s;
  let reordered = 0;
  for (let j = 0; j < q; j++) {
    const start = offsets[j];
    const len = offsets[j + 1] - start;
    const m = mode[j];
    if (m === 0 || len <= 1) {
      for (let k = 0; k < len; k++) {
        outOrder[start + k] = start + k;
        outSlack[start + k] = slack[start + k];
      }
      continue;
    }
    let maxScore = 0;
    if (m === 2) for (let k = 0; k < len; k++) maxScore = Math.max(maxScore, score[start + k]);

    // a goes before b: promoted class, then shorter runtime, then current position
    const before = (a: number, b: number): boolean => {
      const ga = maxScore > 0 && score[start + a] === maxScore ? 0 : 1;
      const gb = maxScore > 0 && score[start + b] === maxScore ? 0 : 1;
      if (ga !== gb) return ga < gb;
      const ra = runtime[start + a], rb = runtime[start + b];
      if (ra !== rb) return ra < rb;
      return a < b;
    };
    let size = 0;
    const push = (x: number): void => {
      let i = size;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const p = heap[parent];
        if (!before(x, p)) break;
        heap[i] = p;
        i = parent;
      }
      heap[i] = x;
      size++;
    };
    const siftDown = (): void => {
      let i = 0;
      const x = heap[0];
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        let cv = heap[c];
        if (c + 1 < size) {
          const rv = heap[c + 1];
          if (before(rv, cv)) { c++; cv = rv; }
        }
        if (!before(cv, x)) break;
        heap[i] = cv;
        i = c;
      }
      heap[i] = x;
    };
    let next = 0;
    let barrier = -1;
    // enter tasks up to and including the next frozen one; nothing behind it may pass it
    const advance = (): void => {
      barrier = -1;
      while (next < len) {
        push(next);
        const frozen = slack[start + next] >= slackThreshold;
        next++;
        if (frozen) { barrier = next - 1; return; }
      }
    };
    advance();
    for (let k = 0; k < len; k++) {
      const x = heap[0];
      size--;
      if (size > 0) {
        heap[0] = heap[size];
        siftDown();
      }
      outOrder[start + k] = start + x;
      newPos[x] = k;
      if (x === barrier) advance();
    }
    let minAfter = len;
    for (let i = len - 1; i >= 0; i--) {
      const np = newPos[i];
      const s0 = slack[start + i];
      outSlack[start + i] = minAfter < np ? s0 + 1 : s0;
      if (np < minAfter) minAfter = np;
    }
    let maxBefore = -1;
    for (let i = 0; i < len; i++) {
      const np = newPos[i];
      if (maxBefore > np) reordered++;
      if (np > maxBefore) maxBefore = np;
    }
  }
  s.reordered = reordered;
  return Status.OK;
}
