// LTRF attributes each started task to its own job, also when two jobs of one queue arrive at
// the same instant (the quantum of the job's application is what the ledger charges).
import { describe, expect, it } from "vitest";
import { createScheduler } from "../../src/index.js";
import "../../src/policies/index.js";

type Running = Array<{ job: string; node: string }>;
const runningOf = (state: unknown, queue: string): Running => (state as { queues: Record<string, { running: Running }> }).queues[queue].running;

describe("LTRF: two jobs of one queue arriving together", () => {
  for (const policy of ["ltrf", "mlrf", "h-ltrf"]) {
    it(`${policy}, live: each started task is charged to its own job`, () => {
      const s = createScheduler({ policy, capacity: [2], clock: () => 0 });
      s.addQueue("x");
      s.submit("x", { id: "a1", demand: [1], job: "A" });
      s.submit("x", { id: "b1", demand: [1], job: "B" });
      expect(s.schedule().map((t) => t.id)).toEqual(["a1", "b1"]);
      const running = runningOf(s.snapshot().policyState, "x");
      expect(running.map((r) => r.job)).toEqual(["A", "B"]);
      expect(new Set(running.map((r) => r.node)).size).toBe(2); // one application node per job
    });
  }
});
