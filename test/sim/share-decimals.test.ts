// SimOptions.shareDecimals (src/dispatch/dispatcher.ts): the online-DRF phase compares dominant
// shares rounded per resource at the start of each pass, as IRFsim does (2 decimals); exact by
// default.
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import "../../src/policies/index.js";
import type { Workload } from "../../src/policy/model.js";
import { simulate } from "../../src/sim/simulator.js";

const engine = loadEngineSync();
const job = (id: string, queue: string, arrival: number, tasks: number) => ({ id, queue, arrival, stages: [{ tasks, demand: [1], duration: 10 }] });
// B holds 50 of 100, A 49; at t = 1 each asks for one more unit and one is free
const w: Workload = {
  name: "rounding", resources: ["cpu"], capacity: [100], params: {}, seed: 0,
  queues: [{ name: "B", kind: "TQ" }, { name: "A", kind: "TQ" }],
  jobs: [job("b0", "B", 0, 50), job("a0", "A", 0, 49), job("b1", "B", 1, 1), job("a1", "A", 1, 1)],
};
const finish = (opts: { shareDecimals?: number }, id: string) => {
  const j = simulate(w, { policy: "drf", engine, ...opts }).jobs.find((x) => x.id === id)!;
  return j.outcome.status === "finished" ? j.outcome.finish : NaN;
};

describe("shareDecimals", () => {
  it("exact shares: A (0.49) gets the free unit before B (0.50)", () => {
    expect([finish({}, "a1"), finish({}, "b1")]).toEqual([11, 20]);
    expect([finish({ shareDecimals: 2 }, "a1"), finish({ shareDecimals: 2 }, "b1")]).toEqual([11, 20]);
  });

  it("rounded to 1 decimal both are 0.5: the tie goes to the first queue, B", () => {
    expect([finish({ shareDecimals: 1 }, "b1"), finish({ shareDecimals: 1 }, "a1")]).toEqual([11, 20]);
  });

  it("anything but an integer 0..15 is an InputError naming the option", () => {
    for (const bad of [-1, 16, 1.5, "2", NaN]) {
      expect(() => simulate(w, { policy: "drf", engine, shareDecimals: bad as number })).toThrow(InputError);
      try { simulate(w, { policy: "drf", engine, shareDecimals: bad as number }); } catch (e) { expect((e as InputError).field).toBe("shareDecimals"); }
    }
  });
});
