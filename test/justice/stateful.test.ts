// Stateful fuzz (issue 21): Justice's estimator against a model that recomputes Algorithms 1-3
// and ESTIMATE_REQ from the list of accepted jobs, under random sequences of valid, extreme
// and invalid trackJob / estimateCpus calls (test/helpers/stateful.ts). A refused job leaves
// the estimator exactly as before; an accepted one gives the model's state bit for bit.
import fc from "fast-check";
import { describe, it } from "vitest";
import { JusticeEstimator, type TrackedJob } from "../../src/justice/estimator.js";
import { assertModelRun, command, expect, expectRefusedUnchanged } from "../helpers/stateful.js";

interface Model {
  capacity: number;
  smoothing: number;
  equal: boolean;
  jobs: TrackedJob[];
}

/** Algorithm 1's state recomputed from the accepted jobs, and the smoothed error (CALC_SMOOTHED_AVG). */
function modelState(m: Model) {
  const rates: number[] = [], errors: number[] = [];
  let last: TrackedJob | null = null, lastFrac: number | null = null;
  let value = 0, sum = 0;
  for (const j of m.jobs) {
    const maxCpus = Math.min(j.requestedTasks, m.capacity);
    const rate = j.compTime / j.deadline / maxCpus;
    rates.push(rate);
    lastFrac = j.cpusAllocated / maxCpus;
    const err = rate - lastFrac;
    errors.push(err);
    sum += err;
    value = errors.length === 1 ? err : m.smoothing * err + (1 - m.smoothing) * value;
    last = j;
  }
  const n = errors.length;
  return {
    completedJobs: n,
    minReqRateList: rates,
    MinCPUFrac: n ? Math.min(...rates) : null,
    MaxCPUFrac: n ? Math.max(...rates) : null,
    LastCPUFrac: lastFrac,
    LastSuccess: last ? last.metDeadline : null,
    fractionErrorList: errors,
    smoothedError: n === 0 ? 0 : m.equal ? sum / n : value,
  };
}

/** Would accepting `j` keep every state value finite (the estimator's rule, finding 8)? */
function keepsFinite(m: Model, j: TrackedJob): boolean {
  const s = modelState({ ...m, jobs: [...m.jobs, j] });
  const sum = s.fractionErrorList.reduce((a, b) => a + b, 0);
  return [...s.minReqRateList, ...s.fractionErrorList, s.smoothedError, sum].every(Number.isFinite);
}

const magnitude = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 500 }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_VALUE, 1e308, 1e300, 1e-300, 5e-324, 0.25) },
);

const jobArb = fc.record({
  compTime: magnitude, deadline: magnitude, requestedTasks: fc.integer({ min: 1, max: 40 }),
  cpuShare: fc.double({ min: 0, max: 1, noNaN: true }), metDeadline: fc.boolean(),
});

const BAD: Array<[keyof TrackedJob, unknown]> = [
  ["compTime", NaN], ["compTime", 0], ["compTime", -1], ["compTime", Infinity], ["deadline", 0], ["deadline", "5"],
  ["requestedTasks", 1.5], ["requestedTasks", 0], ["cpusAllocated", 0], ["cpusAllocated", 1e9], ["metDeadline", 1], ["metDeadline", null],
];

function commands() {
  const track = jobArb.map((g) => command<Model, JusticeEstimator>(`track ${JSON.stringify(g)}`, (m, e) => {
    const maxCpus = Math.min(g.requestedTasks, m.capacity);
    const job: TrackedJob = { compTime: g.compTime, requestedTasks: g.requestedTasks, deadline: g.deadline, cpusAllocated: Math.max(1, Math.ceil(g.cpuShare * maxCpus)), metDeadline: g.metDeadline };
    if (!keepsFinite(m, job)) {
      expectRefusedUnchanged(() => e.trackJob(job), e, { field: /^compTime$/ });
      return;
    }
    e.trackJob(job);
    m.jobs.push(job);
    expect(e.state()).toEqual(modelState(m));
  }));
  const bad = fc.tuple(jobArb, fc.constantFrom(...BAD)).map(([g, [field, value]]) => command<Model, JusticeEstimator>(`bad ${field}=${String(value)}`, (_m, e) => {
    const job = { compTime: 100, requestedTasks: g.requestedTasks, deadline: 10, cpusAllocated: 1, metDeadline: true, [field]: value } as TrackedJob;
    expectRefusedUnchanged(() => e.trackJob(job), e, { field: new RegExp(`^${field}$`) });
  }));
  const estimate = fc.record({ requestedTasks: fc.integer({ min: 1, max: 40 }), deadline: magnitude, wait: fc.double({ min: 0, max: 1.2, noNaN: true }) }).map((q) => command<Model, JusticeEstimator>(`estimate ${JSON.stringify(q)}`, (m, e) => {
    const timeInQueue = q.deadline * q.wait;
    const est = e.estimateCpus({ requestedTasks: q.requestedTasks, deadline: q.deadline, timeInQueue });
    const maxCpus = Math.min(q.requestedTasks, m.capacity);
    expect(est.maxCpus).toBe(maxCpus);
    if (timeInQueue >= q.deadline) {
      expect(est).toMatchObject({ cpus: null, feasible: false, fraction: Infinity });
      return;
    }
    const s = modelState(m);
    if (s.completedJobs < 2) {
      expect(est).toMatchObject({ cpus: maxCpus, feasible: true, bootstrap: true, fraction: 1 });
      return;
    }
    // Alg. 2, 3 and the queue-time correction, as in the paper's order
    const base = ((s.LastCPUFrac as number) + (s.LastSuccess ? (s.MinCPUFrac as number) : (s.MaxCPUFrac as number))) / 2;
    const corrected = Math.min(1, Math.max(s.MinCPUFrac as number, base + s.smoothedError));
    const fraction = corrected * (q.deadline / (q.deadline - timeInQueue));
    const cpus = Math.max(Math.ceil(fraction * maxCpus - 1e-9), 1);
    expect(est).toMatchObject({ cpus, feasible: cpus <= maxCpus, bootstrap: false, fraction, base, corrected });
    for (const v of [est.cpus, est.fraction, est.base, est.correction, est.corrected]) expect(Number.isFinite(v)).toBe(true);
  }));
  return [track, bad, estimate];
}

describe("stateful fuzz: Justice estimator", () => {
  it("random sequences of tracked jobs (some overflowing, some invalid) and estimates match the model", () => {
    const setup = fc.tuple(fc.integer({ min: 1, max: 64 }), fc.constantFrom(0.5, 0.25, 1), fc.boolean()).map(([capacity, smoothing, equal]) => () => ({
      model: { capacity, smoothing, equal, jobs: [] } as Model,
      real: new JusticeEstimator({ capacity, smoothing, errorWeighting: equal ? "equal" : "exponential" }),
    }));
    assertModelRun(setup, commands(), { maxCommands: 30 });
  });
});
