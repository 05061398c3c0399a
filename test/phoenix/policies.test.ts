// Phoenix node policies as plugin compositions: each registered policy's plugins, the
// ablations each accepts (others are InputErrors naming the option), custom compositions and
// plugins through the public API, and the percentile the metrics use.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";
import { composePolicy, getNodePolicy, nodePolicyNames, registerNodePolicy, type NodePlugin } from "../../src/phoenix/policies.js";
import { simulateNodes } from "../../src/phoenix/node-sim.js";
import { percentiles } from "../../src/phoenix/metrics.js";
import type { Constraint, Machines } from "../../src/phoenix/constraints.js";
import { attachConstraints } from "../../src/phoenix/workload.js";
import { Rng } from "../../src/random/rng.js";

const engine = loadEngineSync();
const names = (p: string, o = {}) => getNodePolicy(p, o).plugins.map((x) => x.name);
const uniform = (n: number): Machines => ({ count: n, attrs: Float64Array.from({ length: n * 8 }, (_, i) => [0, 16, 64, 4, 404, 2, 2.6, 10][i % 8]) });
const job = (arrival: number, durations: number[], estimate: number, constraints: Constraint[] = []) =>
  ({ arrival, durations: Float64Array.from(durations), estimate, constraints });

/** A small random workload: short and long jobs, some constrained. */
function workload(seed: number) {
  const rng = new Rng(seed);
  const trace = Array.from({ length: 60 }, (_, i) => {
    const long = rng.next() < 0.15;
    const n = 1 + rng.int(0, long ? 6 : 3);
    const durations = Float64Array.from({ length: n }, () => (long ? 100 + rng.next() * 200 : 1 + rng.next() * 20));
    let mean = 0;
    for (const d of durations) mean += d / n;
    return { arrival: i * 2 + rng.next(), durations, meanDuration: mean };
  });
  return attachConstraints(trace, rng.fork());
}

describe("node policies are plugin compositions", () => {
  it("registers the four policies with the plugins the docs list, in order", () => {
    expect(nodePolicyNames()).toEqual(expect.arrayContaining(["phoenix", "eagle-c", "hawk-c", "sparrow-c"]));
    expect(names("sparrow-c")).toEqual(["probed-long-jobs", "batch-sampling", "fifo-queues"]);
    expect(names("hawk-c")).toEqual(["short-only-partition", "central-long-jobs", "batch-sampling", "fifo-queues", "work-stealing"]);
    expect(names("eagle-c")).toEqual(["short-only-partition", "central-long-jobs", "succinct-state", "srpt-queues", "sticky-probes"]);
    expect(names("phoenix")).toEqual(["short-only-partition", "central-long-jobs", "succinct-state", "srpt-queues", "crv-reordering", "relax-congested-soft", "negotiate-soft", "sticky-probes"]);
  });

  it("ablations swap or add one plugin", () => {
    expect(names("eagle-c", { newestProbeFirst: true })).toEqual(["short-only-partition", "central-long-jobs", "succinct-state", "newest-probe-first", "sticky-probes"]);
    expect(names("phoenix", { waitAwareProbes: true })).toContain("wait-aware-probes");
    expect(names("phoenix", { suspendStickyWhenCongested: true }).at(-1)).toBe("sticky-probes-suspended-when-congested");
    expect(names("phoenix", { newestProbeFirst: false })).toEqual(names("phoenix"));
  });

  it("an ablation a policy does not have, or a non-boolean, is an InputError naming the option", () => {
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        if (e instanceof InputError) return e.field;
        throw e;
      }
      return "ok";
    };
    expect(field(() => getNodePolicy("hawk-c", { newestProbeFirst: true }))).toBe("options.newestProbeFirst");
    expect(field(() => getNodePolicy("eagle-c", { waitAwareProbes: true }))).toBe("options.waitAwareProbes");
    expect(field(() => getNodePolicy("phoenix", { stickyProbes: false } as never))).toBe("options.stickyProbes");
    expect(field(() => getNodePolicy("phoenix", { newestProbeFirst: 1 } as never))).toBe("options.newestProbeFirst");
    expect(field(() => getNodePolicy("nope"))).toBe("policy");
    expect(field(() => simulateNodes([], { engine, policy: 3 as never, workers: 2, seed: 1, cutoff: 90 }))).toBe("policy");
    expect(field(() => simulateNodes([], { engine, policy: { name: "x", plugins: [null] } as never, workers: 2, seed: 1, cutoff: 90 }))).toBe("policy.plugins[0]");
  });

  it("a policy composed from a registered one's plugins runs bit-identically to it (every policy, random workloads)", () => {
    for (const seed of [1, 2, 3]) {
      const jobs = workload(seed);
      for (const p of ["phoenix", "eagle-c", "hawk-c", "sparrow-c"]) {
        const run = (policy: string | ReturnType<typeof composePolicy>) => simulateNodes(jobs, { engine, policy, workers: 6, seed, cutoff: 50, shortOnlyFraction: 0.34 });
        const a = run(p);
        const b = run(composePolicy(`copy-of-${p}`, getNodePolicy(p).plugins));
        expect(b.policy).toBe(`copy-of-${p}`);
        expect(JSON.stringify({ ...b, policy: p })).toBe(JSON.stringify(a));
      }
    }
  });

  it("a user plugin fills an extension point: an idle hook that pulls a queued probe from worker 1 to worker 0", () => {
    // worker 0 idles once its 1 s task ends while worker 1 still has a 10 s task and a probe queued
    let calls = 0;
    const pull: NodePlugin = {
      name: "pull-from-1",
      fills: ["idle"],
      build: (m) => ({
        idle(w) {
          calls++;
          if (w === 0 && m.queues[1].length > 0) m.queues[0].push(m.queues[1].shift()!);
        },
      }),
    };
    registerNodePolicy({ name: "fifo-with-pull", description: "test", create: () => composePolicy("fifo-with-pull", [...getNodePolicy("sparrow-c").plugins, pull]) });
    const m = uniform(2);
    // probeRatio 1: job 0 (two tasks) probes both workers; job 1 then queues behind one of them
    const jobs = [job(0, [1, 10], 5), job(0.5, [3], 3), job(0.6, [3], 3)];
    const base = simulateNodes(jobs, { engine, policy: "sparrow-c", workers: 2, seed: 4, cutoff: 50, machines: m, probeRatio: 1 });
    const pulled = simulateNodes(jobs, { engine, policy: "fifo-with-pull", workers: 2, seed: 4, cutoff: 50, machines: m, probeRatio: 1 });
    expect(calls).toBeGreaterThan(0);
    // pulling never delays the last job: its probe runs no later than without the plugin
    expect(Math.max(...pulled.jobs.map((j) => j.end))).toBeLessThanOrEqual(Math.max(...base.jobs.map((j) => j.end)));
    expect(pulled.jobs.every((j) => j.end >= j.arrival)).toBe(true);
  });
});

describe("metrics percentiles", () => {
  it("are the nearest-rank percentiles (rank ceil(p/100 n), clamped to [1, n]) the node mode always used", () => {
    const old = (s: Float64Array, p: number) => (s.length === 0 ? null : s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1]);
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true }), { maxLength: 60 }), (xs) => {
        const s = Float64Array.from(xs).sort();
        const r = percentiles(xs);
        expect([r.p50, r.p90, r.p99]).toEqual([old(s, 50), old(s, 90), old(s, 99)]);
      }),
    );
    expect(percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).p90).toBe(9);
  });
});
