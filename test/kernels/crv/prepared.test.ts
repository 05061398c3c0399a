// Prepared Phoenix reorder problems (engine.prepareCrv): bit-identical to engine.crvReorder,
// round after round with the slack carried over in place, on both backends; misuse and bad
// elements are InputErrors naming the field and index.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, type CrvReorderInput, type CrvReorderResult } from "../../../src/index.js";
import { backends } from "../../helpers/engines.js";
import { caught } from "../../helpers/caught.js";

const roundArb = fc.record({
  lens: fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 10 }),
  thr: fc.nat({ max: 6 }),
}).chain(({ lens, thr }) => {
  const t = lens.reduce((a, b) => a + b, 0);
  const queueOffsets = [0];
  for (const l of lens) queueOffsets.push(queueOffsets[queueOffsets.length - 1] + l);
  return fc.record({
    queueOffsets: fc.constant(queueOffsets),
    slackThreshold: fc.constant(thr),
    crv: fc.array(fc.oneof(fc.constant(0), fc.constantFrom(0.5, 2), fc.double({ min: 0, max: 10, noNaN: true })), { minLength: t, maxLength: t }),
    runtime: fc.array(fc.oneof(fc.constantFrom(1, 5, 30), fc.double({ min: 0, max: 1e4, noNaN: true })), { minLength: t, maxLength: t }),
    slack: fc.array(fc.nat({ max: thr + 1 }), { minLength: t, maxLength: t }),
    mode: fc.array(fc.constantFrom<0 | 1 | 2>(0, 1, 2), { minLength: lens.length, maxLength: lens.length }),
  });
});

function same(a: CrvReorderResult, b: CrvReorderResult): void {
  expect(Array.from(a.order)).toEqual(Array.from(b.order));
  expect(Array.from(a.slack)).toEqual(Array.from(b.slack));
  expect(a.reordered).toBe(b.reordered);
}


for (const [name, make] of backends) {
  const engine = make();
  describe(`prepared CRV reorder (${name})`, () => {
    it("equals engine.crvReorder bit for bit over 3 rounds, written through the views or loaded (property)", () => {
      fc.assert(fc.property(roundArb, (x: CrvReorderInput & { queueOffsets: number[] }) => {
        const q = x.queueOffsets.length - 1, t = x.crv.length;
        const p = engine.prepareCrv(q, t, { slackThreshold: x.slackThreshold });
        const loaded = engine.prepareCrv(q, t, { slackThreshold: x.slackThreshold }).load(x);
        p.queueOffsets.set(x.queueOffsets);
        p.crv.set(x.crv as number[]);
        p.runtime.set(x.runtime as number[]);
        p.mode.set(x.mode as number[]);
        p.slack.set(x.slack as number[]);
        let slack = Array.from(x.slack as number[]);
        for (let round = 0; round < 3; round++) {
          const expected = engine.crvReorder({ ...x, slack });
          const r = p.solve();
          same(r, expected);
          same(p.results, expected);
          same(p.copyResults(), expected);
          if (round === 0) same(loaded.solve(), expected);
          slack = Array.from(expected.slack);
          p.slack.set(r.slack); // carry the slack into the next round in place
        }
        p.dispose();
        loaded.dispose();
      }), { numRuns: 60 });
    });

    it("copies into caller arrays and reuses its result views", () => {
      const x = { queueOffsets: [0, 3, 6], crv: [0.5, 0, 2, 0.5, 0, 2], runtime: [30, 5, 1, 30, 5, 1], slack: [0, 5, 0, 0, 0, 0], mode: ["srpt", "crv"] as const };
      const expected = engine.crvReorder({ ...x, mode: [...x.mode] });
      const p = engine.prepareCrv(2, 6).load({ ...x, mode: [...x.mode] });
      const r = p.solve();
      same(r, expected);
      expect(p.solve().order).toBe(r.order);
      const into = { order: new Uint32Array(6), slack: new Int32Array(6) };
      const c = p.copyResults(into);
      expect(c.order).toBe(into.order);
      same(c, expected);
    });

    it("reports bad elements written through the views, and misuse, as InputErrors", () => {
      const p = engine.prepareCrv(1, 2).load({ queueOffsets: [0, 2], crv: [0, 1], runtime: [1, 2], slack: [0, 0], mode: ["crv"] });
      p.crv[1] = NaN;
      let e = caught(() => p.solve());
      expect(e).toBeInstanceOf(InputError);
      expect(e.message).toMatch(/^crv\[1\]: must be a finite number >= 0/);
      p.crv[1] = 1;
      p.slack[0] = -1;
      expect(caught(() => p.solve()).message).toMatch(/^slack\[0\]/);
      p.slack[0] = 0;
      p.queueOffsets[1] = 1;
      expect(caught(() => p.solve()).message).toMatch(/^queueOffsets\[1\]: must start at 0, never decrease and end at T=2/);
      p.queueOffsets[1] = 2;
      p.mode[0] = 3;
      expect(caught(() => p.solve()).message).toMatch(/^mode\[0\]/);
      p.mode[0] = 2;
      expect(Array.from(p.solve().order)).toEqual([1, 0]);
      expect(caught(() => p.load({ queueOffsets: [0, 1, 2], crv: [0, 1], runtime: [1, 2], slack: [0, 0], mode: ["crv", "crv"] })).message)
        .toMatch(/^queueOffsets: holds Q=2 queues, expected Q=1 \(the prepared size\)/);
      expect(caught(() => p.load({ queueOffsets: [0, 2], crv: [0, 1], runtime: [1, 2], slack: [0, 0], mode: ["crv"], slackThreshold: 3 })).message)
        .toMatch(/^slackThreshold: is 3, but the problem was prepared with slackThreshold: 5/);
      // a load that fails part way (a bad element) blocks solve() until a load succeeds
      expect(caught(() => p.load({ queueOffsets: [0, 2], crv: [0, 1], runtime: [1, 2], slack: [0, 0.5], mode: ["crv"] })).message).toMatch(/^slack\[1\]: must be a whole number/);
      expect(caught(() => p.solve()).message).toMatch(/^input: the last load\(\) failed part way/);
      expect(caught(() => engine.prepareCrv(1, 2, { slackThreshold: -1 })).message).toMatch(/^slackThreshold: must be a whole number >= 0/);
      expect(caught(() => engine.prepareCrv(1.5, 2)).message).toMatch(/^q: must be a whole number >= 0/);
      expect(caught(() => engine.prepareCrv(1, 2).results).message).toMatch(/^results: no results: call solve\(\) first/);
      const d = engine.prepareCrv(0, 0);
      expect(Array.from(d.solve().order)).toEqual([]);
      d.dispose();
      expect(caught(() => d.solve()).message).toMatch(/^prepared: this prepared crv problem was disposed/);
    });
  });
}
