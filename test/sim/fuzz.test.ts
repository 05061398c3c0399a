// Adversarial audit of simulate(): a small valid workload with one or two fields replaced by
// hostile values (numbers at the edges of f64, non-numbers, wrong containers), under every
// registered policy and hostile options, gives a result or an InputError naming the field,
// never a TypeError or a hang; a result accounts for every job exactly once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bopfWorkload, policyNames, simulate, type Workload } from "../../src/index.js";
import { backends } from "../helpers/engines.js";
import { FUZZ, hostileValue, nonArray, outcome } from "../helpers/hostile.js";

const FIELD = /^(workload|updateInterval|sampleInterval|horizon|seed|preemption|policy|policyOptions|options|queues|tWait|tieBreak)(\.\w+|\[\d+\])*$/;

const base = (): Workload => JSON.parse(JSON.stringify(bopfWorkload({ tqs: 2, tqJobs: 2, bursts: 1 }, 7))) as Workload;

/** Paths of a workload that a mutation may hit (each a list of keys). */
function paths(w: Workload): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [["capacity"], ["capacity", 0], ["resources"], ["queues"], ["jobs"]];
  w.queues.forEach((q, i) => {
    out.push(["queues", i], ["queues", i, "name"], ["queues", i, "kind"], ["queues", i, "weight"], ["queues", i, "bursts"], ["queues", i, "path"], ["queues", i, "params"]);
    q.bursts?.forEach((_, n) => out.push(["queues", i, "bursts", n], ["queues", i, "bursts", n, "start"], ["queues", i, "bursts", n, "window"], ["queues", i, "bursts", n, "volume", 0]));
  });
  w.jobs.forEach((j, i) => {
    out.push(["jobs", i], ["jobs", i, "id"], ["jobs", i, "queue"], ["jobs", i, "arrival"], ["jobs", i, "deadline"], ["jobs", i, "stages"]);
    j.stages.forEach((_, s) => out.push(["jobs", i, "stages", s], ["jobs", i, "stages", s, "tasks"], ["jobs", i, "stages", s, "demand"], ["jobs", i, "stages", s, "demand", 0], ["jobs", i, "stages", s, "duration"], ["jobs", i, "stages", s, "parents"]));
  });
  return out;
}

function setPath(w: Workload, p: Array<string | number>, v: unknown): void {
  let o = w as unknown as Record<string | number, unknown>;
  for (let i = 0; i < p.length - 1; i++) {
    const next = o[p[i]];
    if (next === null || typeof next !== "object") return;
    o = next as Record<string | number, unknown>;
  }
  o[p[p.length - 1]] = v;
}

const valueArb = fc.oneof({ weight: 6, arbitrary: hostileValue }, { weight: 1, arbitrary: nonArray }, { weight: 1, arbitrary: fc.constantFrom<unknown>(1e300, 5e-324, 2 ** 53, [null], [1e300, 1e300, 1e300, 1e300, 1e300, 1e300]) });

describe.each(backends)("fuzz simulate (%s)", (_name, make) => {
  const engine = make();
  const n = paths(base()).length;

  it("hostile workload fields and options -> a result or an InputError naming the field", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(n - 1), valueArb), { minLength: 1, maxLength: 2 }),
        fc.constantFrom(...policyNames()),
        fc.record({ horizon: fc.option(hostileValue, { nil: undefined }), sampleInterval: fc.option(hostileValue, { nil: undefined }), updateInterval: fc.option(hostileValue, { nil: undefined }), seed: fc.option(hostileValue, { nil: undefined }) }, { requiredKeys: [] }),
        (muts, policy, opts) => {
          const w = base();
          const ps = paths(w);
          for (const [at, v] of muts) setPath(w, ps[at % ps.length], v);
          const r = outcome(() => simulate(w, { policy, engine, ...opts } as never), FIELD);
          if (r.kind !== "ok") return;
          const res = r.value as { jobs: Array<{ id: string }> };
          expect(res.jobs.length).toBe(w.jobs.length);
          expect(new Set(res.jobs.map((j) => j.id)).size).toBe(w.jobs.length);
        },
      ),
      { ...FUZZ, numRuns: Math.ceil(FUZZ.numRuns / 2) },
    );
  });

  it("findings, each failing before its fix", () => {
    const field = (f: () => unknown) => {
      const o = outcome(f);
      return o.kind === "input" ? o.error.field : o.kind;
    };
    // a string horizon was compared as a string: a SimulationError "the job never ended"
    expect(field(() => simulate(base(), { policy: "drf", engine, horizon: "1" as never }))).toBe("horizon");
    expect(field(() => simulate(base(), { policy: "drf", engine, horizon: NaN }))).toBe("horizon");
    // a sampleInterval of 1e-9 s over a run of thousands of seconds: ~10^12 series points
    expect(field(() => simulate(base(), { policy: "drf", engine, sampleInterval: 1e-9 }))).toBe("sampleInterval");
    // an updateInterval of 9.3e-302 s (FUZZ_SEED=11): 2^24 policy ticks, minutes, before the
    // in-loop cap threw; refused at once when it cannot reach the horizon / last arrival
    expect(field(() => simulate(base(), { policy: "mlrf", engine, horizon: 8, updateInterval: 9.332636185032189e-302 }))).toBe("updateInterval");
    expect(field(() => simulate(base(), { policy: "drf", engine, updateInterval: 1e-9 }))).toBe("updateInterval");
    // a Symbol updateInterval: TypeError from the >= comparison (FUZZ_RUNS=1000)
    expect(field(() => simulate(base(), { policy: "drf", engine, updateInterval: Symbol("s") as never }))).toBe("updateInterval");
    // MBVT with a burst volume of 1e300: the engine's DRF refusal named its own row (demands[2])
    // instead of the queue (FUZZ_SEED=222)
    const w0 = base();
    w0.queues[0].bursts![0].volume[0] = 1e300;
    expect(field(() => simulate(w0, { policy: "mbvt", engine }))).toMatch(/^queues\[\d+\]$/);
    // TypeErrors inside validateWorkload
    const w1 = base();
    (w1.queues[0] as unknown as { bursts: unknown }).bursts = 3;
    expect(field(() => simulate(w1, { policy: "drf", engine }))).toBe("workload.queues[0].bursts");
    const w2 = base();
    (w2.jobs[0].stages as unknown[])[0] = null;
    expect(field(() => simulate(w2, { policy: "drf", engine }))).toBe("workload.jobs[0].stages[0]");
    const w3 = base();
    (w3.jobs[0].stages[0] as unknown as { parents: unknown }).parents = 1;
    expect(field(() => simulate(w3, { policy: "drf", engine }))).toBe("workload.jobs[0].stages[0].parents");
    // 2^53 tasks in one stage: per-task state without bound
    const w4 = base();
    w4.jobs[0].stages[0].tasks = 2 ** 53;
    w4.jobs[0].stages[0].duration = 1;
    expect(field(() => simulate(w4, { policy: "drf", engine }))).toBe("workload.jobs[0].stages[0].tasks");
    expect(field(() => simulate(base(), null as never))).toBe("options");
    // a task of 7.4e52 s under updateInterval 3 (N-BoPF): refused only after 2^24 ticks, 319 s of
    // policy calls (FUZZ_SEED=391747009); now when the task starts (the message says so)
    const w5 = base();
    w5.jobs[0].stages[1].duration = 7.358366298845889e52;
    const slow = outcome(() => simulate(w5, { policy: "nbopf", engine, updateInterval: 3 }), FIELD);
    expect(slow.kind === "input" ? [slow.error.field, /when a task started/.test(slow.error.message)] : slow.kind).toEqual(["updateInterval", true]);
    // bopfWorkload: NaN counts generated nothing silently, 10^9 queues never finished generating
    expect(field(() => bopfWorkload({ tqs: NaN }))).toBe("params.tqs");
    expect(field(() => bopfWorkload({ tqs: 1e9 }))).toBe("params.tqs");
    expect(field(() => bopfWorkload({ capacity: -1 }))).toBe("params.capacity");
    expect(field(() => bopfWorkload(null as never))).toBe("params");
  });
});
