// Phoenix CRV/SRPT reordering kernel: WASM == JS twin, permutation, slack bound, worked example,
// input errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync, type CrvReorderInput } from "../../../src/index.js";
import { backends } from "../../helpers/engines.js";
import { movedAhead } from "../../../src/phoenix/moved-ahead.js";

const wasm = loadEngineSync({ backend: "wasm" });
const js = loadEngineSync({ backend: "js" });

/** Random rounds: up to 12 queues of up to 40 tasks, scores with ties, slacks around the threshold. */
const roundArb = fc.record({
  lens: fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 12 }),
  thr: fc.nat({ max: 7 }),
  seed: fc.nat(),
}).chain(({ lens, thr }) => {
  const t = lens.reduce((a, b) => a + b, 0);
  return fc.record({
    lens: fc.constant(lens),
    thr: fc.constant(thr),
    crv: fc.array(fc.oneof(fc.constant(0), fc.constantFrom(0.5, 1.5, 2.5), fc.double({ min: 0, max: 10, noNaN: true })), { minLength: t, maxLength: t }),
    runtime: fc.array(fc.oneof(fc.constantFrom(1, 5, 30), fc.double({ min: 0, max: 1e4, noNaN: true })), { minLength: t, maxLength: t }),
    slack: fc.array(fc.nat({ max: thr + 2 }), { minLength: t, maxLength: t }),
    mode: fc.array(fc.constantFrom(0, 1, 2), { minLength: lens.length, maxLength: lens.length }),
  });
});

function toInput(x: { lens: number[]; thr: number; crv: number[]; runtime: number[]; slack: number[]; mode: number[] }): CrvReorderInput {
  const queueOffsets = [0];
  for (const l of x.lens) queueOffsets.push(queueOffsets[queueOffsets.length - 1] + l);
  return { queueOffsets, crv: x.crv, runtime: x.runtime, slack: x.slack, mode: x.mode as Array<0 | 1 | 2>, slackThreshold: x.thr };
}

describe("CRV reorder kernel", () => {
  it("WASM equals the JS twin exactly", () => {
    fc.assert(fc.property(roundArb, (x) => {
      const a = wasm.crvReorder(toInput(x));
      const b = js.crvReorder(toInput(x));
      expect(Array.from(a.order)).toEqual(Array.from(b.order));
      expect(Array.from(a.slack)).toEqual(Array.from(b.slack));
      expect(a.reordered).toBe(b.reordered);
    }), { numRuns: 800 });
  });

  it("per-queue moved-ahead counts (the simulator's CRV count) sum to the kernel's reordered count", () => {
    fc.assert(fc.property(roundArb, (x) => {
      const inp = toInput(x);
      const r = wasm.crvReorder(inp);
      const off = inp.queueOffsets as number[];
      let sum = 0;
      for (let j = 0; j < x.lens.length; j++) sum += movedAhead(r.order, off[j], off[j + 1]);
      expect(sum).toBe(r.reordered);
    }), { numRuns: 300 });
    // old order a b c -> new order c a b: only c moved ahead of tasks that were ahead of it
    expect(movedAhead([9, 3, 1, 2], 1, 4)).toBe(1);
    expect(movedAhead([0], 0, 1)).toBe(0);
  });

  for (const [name, make] of backends) {
    const e = make();
    it(`${name}: is a permutation within each queue; FIFO queues keep their order`, () => {
      fc.assert(fc.property(roundArb, (x) => {
        const inp = toInput(x);
        const r = e.crvReorder(inp);
        const off = inp.queueOffsets as number[];
        for (let j = 0; j < x.lens.length; j++) {
          const got = Array.from(r.order.slice(off[j], off[j + 1])).sort((p, q) => p - q);
          const want = Array.from({ length: x.lens[j] }, (_, k) => off[j] + k);
          expect(got).toEqual(want);
          if (x.mode[j] === 0) expect(Array.from(r.order.slice(off[j], off[j + 1]))).toEqual(want);
        }
      }), { numRuns: 400 });
    });

    it(`${name}: slack never passes the threshold, frozen tasks are never bypassed, bypassed tasks gain exactly one`, () => {
      fc.assert(fc.property(roundArb, (x) => {
        const inp = toInput(x);
        const r = e.crvReorder(inp);
        const off = inp.queueOffsets as number[];
        const pos = new Array<number>(r.order.length);
        r.order.forEach((task, p) => (pos[task] = p));
        for (let j = 0; j < x.lens.length; j++) {
          for (let i = off[j]; i < off[j + 1]; i++) {
            let bypassed = false;
            for (let k = i + 1; k < off[j + 1]; k++) if (pos[k] < pos[i]) bypassed = true;
            expect(r.slack[i]).toBe(x.slack[i] + (bypassed ? 1 : 0));
            if (x.slack[i] >= x.thr) expect(bypassed).toBe(false);
            if (x.slack[i] <= x.thr) expect(r.slack[i]).toBeLessThanOrEqual(x.thr);
          }
        }
      }), { numRuns: 400 });
    });

    it(`${name}: without frozen tasks SRPT sorts by runtime and CRV puts the max-CRV class first`, () => {
      fc.assert(fc.property(roundArb, (x) => {
        const inp = toInput({ ...x, slack: x.slack.map(() => 0), thr: 1000 });
        const r = e.crvReorder(inp);
        const off = inp.queueOffsets as number[];
        for (let j = 0; j < x.lens.length; j++) {
          const ids = Array.from(r.order.slice(off[j], off[j + 1]));
          if (x.mode[j] === 1) for (let k = 1; k < ids.length; k++) expect(x.runtime[ids[k - 1]]).toBeLessThanOrEqual(x.runtime[ids[k]]);
          if (x.mode[j] === 2) {
            const mx = Math.max(0, ...ids.map((i) => x.crv[i]));
            const cls = ids.map((i) => (mx > 0 && x.crv[i] === mx ? 0 : 1));
            expect(cls).toEqual([...cls].sort((p, q) => p - q));
          }
        }
      }), { numRuns: 300 });
    });

    it(`${name}: the worked example of assembly/crv.ts`, () => {
      const r = e.crvReorder({ queueOffsets: [0, 3, 6], crv: [0.5, 0, 2, 0.5, 0, 2], runtime: [30, 5, 1, 30, 5, 1], slack: [0, 5, 0, 0, 0, 0], mode: ["srpt", "crv"] });
      expect(Array.from(r.order)).toEqual([1, 2, 0, 5, 4, 3]);
      expect(Array.from(r.slack)).toEqual([1, 5, 0, 1, 1, 0]);
      expect(r.reordered).toBe(4);
      // an ordered queue is left alone: no slack, nothing reordered
      const again = e.crvReorder({ queueOffsets: [0, 3], crv: [0, 0, 0], runtime: [1, 2, 3], slack: [0, 0, 0], mode: ["srpt"] });
      expect(Array.from(again.order)).toEqual([0, 1, 2]);
      expect(again.reordered).toBe(0);
      expect(Array.from(again.slack)).toEqual([0, 0, 0]);
    });

    it(`${name}: bad input is an InputError naming field and index`, () => {
      const base = { queueOffsets: [0, 2], crv: [0, 1], runtime: [1, 2], slack: [0, 0], mode: ["crv" as const] };
      const err = (inp: unknown) => { try { e.crvReorder(inp as CrvReorderInput); } catch (x) { return x; } return null; };
      const cases: Array<[unknown, string]> = [
        [{ ...base, crv: [0, NaN] }, "crv[1]"],
        [{ ...base, crv: [-1, 0] }, "crv[0]"],
        [{ ...base, runtime: [1, Infinity] }, "runtime[1]"],
        [{ ...base, slack: [0, -1] }, "slack[1]"],
        [{ ...base, slack: [0, 1.5] }, "slack[1]"],
        [{ ...base, mode: ["lifo"] }, "mode[0]"],
        [{ ...base, queueOffsets: [0, 3] }, "queueOffsets[1]"],
        [{ ...base, queueOffsets: [1, 2] }, "queueOffsets[0]"],
        [{ ...base, runtime: [1] }, "runtime"],
        [{ ...base, slackThreshold: -2 }, "slackThreshold"],
      ];
      for (const [inp, field] of cases) {
        const x = err(inp);
        expect(x).toBeInstanceOf(InputError);
        expect((x as InputError).field).toBe(field);
      }
    });
  }
});
