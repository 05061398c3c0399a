// checkPolicy against simulator policies: the built-in DRF keeps its guarantees, and a
// planted fault of each kind is found by the right check with a shrunk workload.
import { describe, expect, it } from "vitest";
import { checkPolicy, type PolicyCheckId } from "../../src/testkit/index.js";
import { DrfPolicy } from "../../src/policies/drf.js";
import { FifoPolicy } from "../../src/policies/fifo.js";
import { loadEngineSync } from "../../src/engine/load.js";
import type { ClusterState, Policy } from "../../src/policy/policy.js";

const engine = loadEngineSync();

/** Starts the first queue (by index) whose next task fits: work-conserving, unfair. */
const greedy = (): Policy => ({
  name: "greedy",
  pickNext(s: ClusterState) {
    for (const q of s.queues) {
      const t = q.nextTask;
      if (q.runnableTasks > 0 && t && t.every((v, r) => s.used[r] + v <= s.capacity[r])) return q.index;
    }
    return -1;
  },
});

const failedWith = (policy: () => Policy, check: PolicyCheckId, extra = {}) => {
  const r = checkPolicy(policy, { checks: [check], runs: 100, seed: 42, engine, ...extra });
  expect(r.failed).toEqual([check]);
  const c = r.checks[0];
  expect(c.counterexample!.queues.length).toBeLessThanOrEqual(3);
  return c.message!;
};

describe("checkPolicy", () => {
  it("the built-in DRF policy: no over-allocation, every job accounted for, fair share, deterministic", () => {
    const checks: PolicyCheckId[] = ["no-over-allocation", "jobs-accounted", "fair-share", "determinism"];
    const r = checkPolicy(() => new DrfPolicy(), { checks, runs: 100, seed: 7, engine });
    expect(r.failed).toEqual([]);
    expect(r.checks.map((c) => c.runs)).toEqual([100, 100, 100, 100]);
  });

  it("a greedy first-fit policy is work-conserving, and unfair (fair-share names the starved queue)", () => {
    expect(checkPolicy(greedy, { checks: ["work-conservation"], runs: 100, seed: 3, engine }).passed).toBe(true);
    expect(failedWith(greedy, "fair-share")).toMatch(/^queue \d held a time-averaged dominant share of .* below its weighted fair share/);
  });

  it("FIFO claiming work conservation: head-of-line blocking is found", () => {
    expect(failedWith(() => new FifoPolicy(), "work-conservation", { workConserving: true })).toMatch(/next task .* fits in the free .* but the policy started nothing more/);
  });

  it("a policy that starts a task that does not fit: no-over-allocation", () => {
    const overeager = (): Policy => ({ name: "overeager", pickNext: (s) => s.queues.findIndex((q) => q.runnableTasks > 0) });
    expect(failedWith(overeager, "no-over-allocation")).toMatch(/over-allocated/);
  });

  it("a policy that never serves the last queue: jobs-accounted", () => {
    const snub = (): Policy => {
      const g = greedy();
      return { name: "snub", pickNext: (s) => { const q = g.pickNext!(s); return q === s.queues.length - 1 && q > 0 ? -1 : q; } };
    };
    expect(failedWith(snub, "jobs-accounted")).toMatch(/the run failed: .*never ended/);
  });

  it("a policy that breaks ties at random: determinism", () => {
    const coin = (): Policy => ({
      name: "coin",
      pickNext(s) {
        const fits = s.queues.filter((q) => q.runnableTasks > 0 && q.nextTask!.every((v, r) => s.used[r] + v <= s.capacity[r]));
        return fits.length ? fits[Math.floor(Math.random() * fits.length)].index : -1;
      },
    });
    expect(failedWith(coin, "determinism")).toBe("the same workload run twice gave different results");
  });

  it("a policy that lets a queue wait while others run: bounded-starvation", () => {
    // serves queue 0 alone while it has work, then the others
    const starve = (): Policy => {
      const g = greedy();
      return {
        name: "starve",
        pickNext: (s) => (s.queues[0].activeJobs > 0 ? (s.queues[0].runnableTasks > 0 && g.pickNext!(s) === 0 ? 0 : -1) : g.pickNext!(s)),
      };
    };
    expect(failedWith(starve, "bounded-starvation")).toMatch(/had runnable tasks and none running from t = /);
  });
});
