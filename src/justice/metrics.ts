// Metrics of the Justice paper §5 for one deadline-mode run (docs/policies/justice.md).
//
// Per interval of `interval` seconds (paper: 60 s), over the jobs present in it (submitted and
// not yet ended; a job dropped at submission is never present):
//   A_i = the CPUs it held, time-averaged over its presence in the interval (queued: 0)
//   D_i = its demand, min(requestedTasks, capacity)
//   fairness (Jain's index on fraction of demand): F_i = min(1, A_i / D_i),
//       J = (sum F_i)^2 / (n * sum F_i^2)
//   equality: Jain's index over the A_i within each class of equal D_i, averaged over classes
//       weighted by class size
//   utilization: busy CPU·s / (capacity * interval length); busy = running a task (reserved but
//       idle CPUs of a partial last wave are idle)
// and each is averaged over the intervals with at least one job present (utilization: over all
// intervals from 0 to the last event).
// Per run (ratios over all n submitted jobs):
//   SDR = met / n; missRatio = finished late / n; dropRatio = dropped (infeasible or killed) / n;
//       SDR + missRatio + dropRatio = 1
//   PTR = CPU·s consumed by jobs that met their deadline / total computation time submitted
//   WTR = CPU·s consumed by jobs that missed or were killed / total computation time submitted
//   (The paper's T_j: the denominator is every submitted job's computation time; the numerators
//   are the work actually done. PTR + WTR <= 1; the rest is work never run.)
// Edge values: Jain of an empty set is skipped; Jain of all-zero values is 1 (all equal, every
// job got nothing) — it only happens in instants when every present job waits.
import type { DeadlineJob } from "./model.js";
import type { DeadlineRun } from "./sim.js";
import { checkPositive } from "./validate.js";
import { InputError, describeValue } from "../errors.js";

export interface DeadlineMetrics {
  jobs: number;
  met: number;
  missed: number;
  dropped: number;
  droppedAtSubmission: number;
  droppedInQueue: number;
  killed: number;
  sdr: number;
  missRatio: number;
  dropRatio: number;
  ptr: number;
  wtr: number;
  /** Interval-averaged Jain's index on fraction of demand. */
  jain: number | null;
  /** Interval-averaged equality (Jain within classes of equal demand, weighted by class size). */
  equality: number | null;
  /** Interval-averaged utilization. */
  utilization: number;
  /** busy / (capacity * makespan) over the whole run. */
  utilizationOverall: number;
  interval: number;
  intervals: number;
  makespan: number;
}

/** Jain's fairness index (sum x)^2 / (n sum x^2); 1 when all values are 0; null when empty. */
export function jainIndex(xs: readonly number[]): number | null {
  if (!Array.isArray(xs)) throw new InputError("xs", `expected an array of numbers, got ${describeValue(xs)}`);
  if (xs.length === 0) return null;
  // in units of the largest |x|: s * s overflowed for values near 1e200 (NaN) and x * x
  // underflowed below 1e-162 (<1e-200, 0> gave 1 instead of 1/2)
  let top = 0;
  xs.forEach((x, i) => {
    if (typeof x !== "number" || !(x >= 0) || !Number.isFinite(x)) throw new InputError(`xs[${i}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
    if (x > top) top = x;
  });
  if (top === 0) return 1;
  // the usual magnitudes as they always were (bit for bit); scaled only outside 2^-400..2^400
  const scale = top >= 2 ** -400 && top <= 2 ** 400 ? 1 : top;
  let s = 0, s2 = 0;
  for (const x of xs) {
    const y = x / scale;
    s += y;
    s2 += y * y;
  }
  return (s * s) / (xs.length * s2);
}

export function computeMetrics(jobs: readonly DeadlineJob[], run: DeadlineRun, interval = 60): DeadlineMetrics {
  checkPositive("interval", interval);
  const C = run.capacity;
  const n = jobs.length;
  const horizon = run.makespan;
  const K = Math.max(1, Math.ceil(horizon / interval));
  // per interval arrays: a tiny interval asked for ~1e300 of them (a RangeError)
  if (!(K <= 2 ** 24)) throw new InputError("interval", `${interval} s gives ${K} intervals over the makespan ${horizon} s, beyond 2^24; use a longer interval`);
  const busy = new Float64Array(K);
  // per interval: present jobs and their presence and held CPU·s
  const present: Array<Array<{ demand: number; presence: number; cpuSec: number }>> = Array.from({ length: K }, () => []);

  for (let i = 0; i < n; i++) {
    const job = jobs[i];
    const o = run.outcomes[i];
    const u = run.usage[i];
    const demand = Math.min(job.requestedTasks, C);
    const a = job.arrival, b = o.end;
    if (b > a) {
      const k0 = Math.min(K - 1, Math.floor(a / interval));
      const k1 = Math.min(K - 1, Math.floor(b / interval));
      const acc = new Map<number, { demand: number; presence: number; cpuSec: number }>();
      for (let k = k0; k <= k1; k++) {
        const lo = Math.max(a, k * interval), hi = Math.min(b, (k + 1) * interval);
        if (hi > lo) acc.set(k, { demand, presence: hi - lo, cpuSec: 0 });
      }
      for (let s = 0; s + 1 < u.t.length; s++) {
        const t0 = u.t[s], t1 = u.t[s + 1];
        if (t1 <= t0) continue;
        addSpread(t0, t1, u.held[s], (k, v) => { const e = acc.get(k); if (e) e.cpuSec += v; });
        addSpread(t0, t1, u.busy[s], (k, v) => { busy[k] += v; });
      }
      for (const [k, e] of acc) present[k].push(e);
    }
  }

  function addSpread(t0: number, t1: number, rate: number, add: (k: number, v: number) => void): void {
    if (rate === 0) return;
    const k0 = Math.min(K - 1, Math.floor(t0 / interval));
    const k1 = Math.min(K - 1, Math.floor(t1 / interval));
    for (let k = k0; k <= k1; k++) {
      const lo = Math.max(t0, k * interval), hi = k === K - 1 ? t1 : Math.min(t1, (k + 1) * interval);
      if (hi > lo) add(k, rate * (hi - lo));
    }
  }

  let jainSum = 0, eqSum = 0, fairCount = 0, utilSum = 0, busyTotal = 0;
  for (let k = 0; k < K; k++) {
    const len = Math.max(0, Math.min(interval, horizon - k * interval));
    busyTotal += busy[k];
    if (len > 0) utilSum += busy[k] / (C * len);
    const ps = present[k];
    if (ps.length === 0) continue;
    const F = ps.map((e) => Math.min(1, e.cpuSec / e.presence / e.demand));
    jainSum += jainIndex(F) as number;
    const classes = new Map<number, number[]>();
    for (const e of ps) {
      const A = e.cpuSec / e.presence;
      const c = classes.get(e.demand);
      if (c) c.push(A); else classes.set(e.demand, [A]);
    }
    let w = 0;
    for (const xs of classes.values()) w += xs.length * (jainIndex(xs) as number);
    eqSum += w / ps.length;
    fairCount++;
  }
  const nIntervals = horizon > 0 ? Math.ceil(horizon / interval) : 0;

  let met = 0, missed = 0, dropped = 0, atSub = 0, inQueue = 0, killed = 0, prod = 0, waste = 0, total = 0;
  for (let i = 0; i < n; i++) {
    const o = run.outcomes[i];
    total += jobs[i].compTime;
    if (o.fate === "met") { met++; prod += o.cpuSeconds; }
    else if (o.fate === "missed") { missed++; waste += o.cpuSeconds; }
    else {
      dropped++;
      waste += o.cpuSeconds;
      if (o.dropKind === "infeasible-at-submission") atSub++;
      else if (o.dropKind === "infeasible-in-queue") inQueue++;
      else killed++;
    }
  }
  const r = (x: number) => (n === 0 ? 0 : x / n);
  return {
    jobs: n, met, missed, dropped, droppedAtSubmission: atSub, droppedInQueue: inQueue, killed,
    sdr: r(met), missRatio: r(missed), dropRatio: r(dropped),
    ptr: total > 0 ? prod / total : 0,
    wtr: total > 0 ? waste / total : 0,
    jain: fairCount > 0 ? jainSum / fairCount : null,
    equality: fairCount > 0 ? eqSum / fairCount : null,
    utilization: nIntervals > 0 ? utilSum / nIntervals : 0,
    utilizationOverall: horizon > 0 ? busyTotal / (C * horizon) : 0,
    interval,
    intervals: nIntervals,
    makespan: horizon,
  };
}
