// One burst, one answer (issue 21, finding 6): a single burst written as a periodic spec
// {count: 1} used `period` as its gap, written as a one-element list it used its window
// (docs/policies/bopf.md, bursts: "for a single burst its window"), so the same LQ was
// admitted hard one way and elastic the other. Both forms now use the window, on every
// path: admit(), admitBatch() on the JS twin and on the engine's kernels (WASM and JS).
import { describe, expect, it } from "vitest";
import { BopfAdmissionControl } from "../../src/bopf/admission.js";
import { burstSeries } from "../../src/bopf/bursts.js";
import { KIND_LQ, KIND_TQ } from "../../src/bopf/admission-batch.js";
import { backends } from "../helpers/engines.js";

const cap = [10, 20];
const one = { start: 5, window: 10, volume: [50, 20] };
// gap = window 10: 50 <= 10 * 10 / m holds up to m = 2; with the period 100 it held up to 20
const periodic = { start: 5, period: 100, window: 10, volume: [50, 20], count: 1 };

function classWith(bursts: unknown, tqs: number): string {
  const ac = new BopfAdmissionControl(cap);
  for (let i = 0; i < tqs; i++) ac.admit({ name: `t${i}`, kind: "TQ" });
  return ac.admit({ name: "lq", kind: "LQ", bursts: bursts as never }).class;
}

function batchClass(engine: Parameters<BopfAdmissionControl["admitBatch"]>[3], tqs: number): number {
  const n = tqs + 1, k = cap.length;
  const b = {
    n, kind: new Uint8Array(n).fill(KIND_TQ), start: new Float64Array(n), period: new Float64Array(n).fill(1), window: new Float64Array(n).fill(1),
    count: new Float64Array(n), volume: new Float64Array(n * k),
  };
  b.kind[tqs] = KIND_LQ;
  b.start[tqs] = periodic.start; b.period[tqs] = periodic.period; b.window[tqs] = periodic.window; b.count[tqs] = 1;
  b.volume.set(periodic.volume, tqs * k);
  const out = { cls: new Uint8Array(n), reason: new Uint8Array(n), id: new Int32Array(n) };
  new BopfAdmissionControl(cap).admitBatch(b as never, out, "batch", engine);
  return out.cls[tqs];
}

describe("a single burst: periodic {count: 1} and a one-element list agree", () => {
  it("same tolerance and gap", () => {
    const a = burstSeries(periodic, cap), b = burstSeries([one], cap);
    expect(a.tolerance).toBe(2);
    expect(a.tolerance).toBe(b.tolerance);
    expect(a.gap(0)).toBe(b.gap(0));
    expect(a.binding).toEqual(b.binding);
  });

  it("same class from admit(), with 0..4 TQs before it", () => {
    const classes = [];
    for (let tqs = 0; tqs <= 4; tqs++) {
      expect(classWith(periodic, tqs)).toBe(classWith([one], tqs));
      classes.push(classWith([one], tqs));
    }
    expect(classes).toContain("hard");
    expect(classes).toContain("elastic");
  });

  it("admitBatch agrees with admit(), on the JS twin and on both engines", () => {
    const names = ["hard", "soft", "elastic", "rejected"];
    for (let tqs = 0; tqs <= 4; tqs++) {
      const want = classWith([one], tqs);
      expect(names[batchClass(null, tqs)]).toBe(want);
      for (const [, make] of backends) expect(names[batchClass(make(), tqs)]).toBe(want);
    }
  });
});
