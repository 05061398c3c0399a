// Deterministic DRF instances for the benchmarks. The same (N, K, seed) always gives the
// same arrays, so runs on different machines and before/after a change measure the same work.
//
// Shape, chosen to exercise every part of the kernel rather than its fast paths:
// - capacity C[r] = N (a fair share is about one unit per queue), different per resource;
// - 10% of demand entries are zero, so queues use different resource subsets;
// - demands are log-uniform over [0.05, 20]: total demand is ~3x capacity on every
//   resource, so some queues are capped, most freeze at a saturation, and saturations
//   happen at several distinct levels;
// - weights are uniform in [0.5, 4], no offsets (plain weighted DRF, the common call).

export interface DrfInstance {
  n: number;
  k: number;
  capacity: Float64Array;
  /** Queue-major N*K. */
  demands: Float64Array;
  weights: Float64Array;
}

/** splitmix32: tiny, seedable, 32-bit only, identical on every platform. */
export function seededUniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

export function drfInstance(n: number, k: number, seed = 1): DrfInstance {
  const rnd = seededUniform(seed * 1_000_003 + n * 31 + k);
  const capacity = new Float64Array(k);
  for (let r = 0; r < k; r++) capacity[r] = n * (0.75 + 0.5 * rnd());
  const demands = new Float64Array(n * k);
  const lo = Math.log(0.05), hi = Math.log(20);
  for (let i = 0; i < n * k; i++) demands[i] = rnd() < 0.1 ? 0 : Math.exp(lo + (hi - lo) * rnd());
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = 0.5 + 3.5 * rnd();
  return { n, k, capacity, demands, weights };
}

/** The same demands as rows of plain numbers: what most callers have. */
export function demandRows(x: DrfInstance): number[][] {
  const rows: number[][] = new Array(x.n);
  for (let i = 0; i < x.n; i++) rows[i] = Array.from(x.demands.subarray(i * x.k, (i + 1) * x.k));
  return rows;
}

const logUniform = (rnd: () => number, lo: number, hi: number): number => Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * rnd());

/**
 * SRPT among BoPF's soft LQs (assembly/srpt.ts): N soft LQs inside a guaranteed burst.
 * - capacity as for DRF (about one unit per queue); what the hard LQs left is 30-70% of it;
 * - want: 10% zero entries, else log-uniform over [0.05, 20] (total ~6x what is available,
 *   so the SRPT order decides who is served: two of the six resources run out, about the
 *   first 20% in key order are served and after that only the queues that want neither;
 *   ~28% get a share in all, at their burst rate, the rest 0);
 * - rate = want x U[0.25, 1.25]: about 3/4 of the queues are capped by their burst rate;
 * - remaining volume: log-uniform over [0.5, 500] where want > 0 (keys spread over 3 decades).
 */
export interface SrptInstance {
  n: number;
  k: number;
  capacity: Float64Array;
  available: Float64Array;
  demands: Float64Array;
  rates: Float64Array;
  remaining: Float64Array;
}

export function srptInstance(n: number, k: number, seed = 2): SrptInstance {
  const rnd = seededUniform(seed * 1_000_003 + n * 31 + k);
  const capacity = new Float64Array(k), available = new Float64Array(k);
  for (let r = 0; r < k; r++) {
    capacity[r] = n * (0.75 + 0.5 * rnd());
    available[r] = capacity[r] * (0.3 + 0.4 * rnd());
  }
  const demands = new Float64Array(n * k), rates = new Float64Array(n * k), remaining = new Float64Array(n * k);
  for (let x = 0; x < n * k; x++) {
    if (rnd() < 0.1) continue;
    demands[x] = logUniform(rnd, 0.05, 20);
    rates[x] = demands[x] * (0.25 + rnd());
    remaining[x] = logUniform(rnd, 0.5, 500);
  }
  return { n, k, capacity, available, demands, rates, remaining };
}

/**
 * LTRF task-level selection (assembly/ltrf.ts), one scheduling point after a wave of releases:
 * - free resources: 10-20% of a cluster of about one unit per queue;
 * - one task's demand: log-uniform over [0.01, 0.5] per resource, 10% zero entries;
 * - pending: 30% of the queues have none, the others 1-20 tasks;
 * - accumulated usage U[0, 100], weights U[0.5, 4], increments (dominant share x assumed
 *   duration) U[0.5, 5]: the lead changes hands after every start, so the queue order is
 *   exercised (no run of starts by one queue to batch).
 * At N = 1e5: 70% of the queues are candidates, 118,577 tasks start (1.2 per queue), held by
 * the 20% of queues with the lowest U/w (~6 each); the first task that does not fit comes
 * after 91,319 starts, when two resources are nearly full, and 61,159 queues are set aside
 * (the kernel's sweeps). A "big wave" scheduling point (a large release, a cluster start);
 * in steady state a call starts a handful of tasks and the validation pass dominates.
 * Work-conserving mode (flags 0), with weights.
 */
export interface LtrfInstance {
  n: number;
  k: number;
  free: Float64Array;
  tasks: Float64Array;
  pending: Float64Array;
  usage: Float64Array;
  weights: Float64Array;
  increments: Float64Array;
}

export function ltrfInstance(n: number, k: number, seed = 3): LtrfInstance {
  const rnd = seededUniform(seed * 1_000_003 + n * 31 + k);
  const free = new Float64Array(k);
  for (let r = 0; r < k; r++) free[r] = n * (0.1 + 0.1 * rnd());
  const tasks = new Float64Array(n * k);
  for (let x = 0; x < n * k; x++) tasks[x] = rnd() < 0.1 ? 0 : logUniform(rnd, 0.01, 0.5);
  const pending = new Float64Array(n), usage = new Float64Array(n), weights = new Float64Array(n), increments = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    pending[i] = rnd() < 0.3 ? 0 : 1 + Math.floor(20 * rnd());
    usage[i] = 100 * rnd();
    weights[i] = 0.5 + 3.5 * rnd();
    increments[i] = 0.5 + 4.5 * rnd();
  }
  return { n, k, free, tasks, pending, usage, weights, increments };
}

/**
 * One Phoenix reordering round (assembly/crv.ts) over T = N tasks. K has no meaning for the
 * kernel, so it sets the queue length instead: worker queues hold 4K tasks on average (8 at
 * K=2, 24 at K=6), lengths uniform in [2K, 6K], so Q ~ N / 4K.
 * - 70% of tasks are unconstrained (CRV score 0), the rest score 0.1-3.0 in steps of 0.1
 *   (several tasks share a queue's maximum);
 * - runtime log-uniform over [0.1 s, 1000 s] (the SRPT key; Phoenix's short/long mix);
 * - slack: 80% 0, else 1-6 with threshold 5: ~7% of tasks are frozen;
 * - modes: 10% FIFO, 30% SRPT, 60% CRV.
 */
export interface CrvInstance {
  q: number;
  t: number;
  offsets: Uint32Array;
  score: Float64Array;
  runtime: Float64Array;
  slack: Int32Array;
  mode: Uint8Array;
  slackThreshold: number;
}

export function crvInstance(n: number, k: number, seed = 4): CrvInstance {
  const rnd = seededUniform(seed * 1_000_003 + n * 31 + k);
  const t = n;
  const lengths: number[] = [];
  for (let sum = 0; sum < t;) {
    const len = Math.min(t - sum, 2 * k + Math.floor((4 * k + 1) * rnd()));
    lengths.push(len);
    sum += len;
  }
  const q = lengths.length;
  const offsets = new Uint32Array(q + 1);
  for (let j = 0; j < q; j++) offsets[j + 1] = offsets[j] + lengths[j];
  const mode = new Uint8Array(q);
  for (let j = 0; j < q; j++) {
    const u = rnd();
    mode[j] = u < 0.1 ? 0 : u < 0.4 ? 1 : 2;
  }
  const score = new Float64Array(t), runtime = new Float64Array(t), slack = new Int32Array(t);
  for (let i = 0; i < t; i++) {
    score[i] = rnd() < 0.7 ? 0 : (1 + Math.floor(30 * rnd())) / 10;
    runtime[i] = logUniform(rnd, 0.1, 1000);
    slack[i] = rnd() < 0.8 ? 0 : 1 + Math.floor(6 * rnd());
  }
  return { q, t, offsets, score, runtime, slack, mode, slackThreshold: 5 };
}
