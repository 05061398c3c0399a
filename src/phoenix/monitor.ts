// The CRV monitor's measurements (docs/policies/phoenix.md, Algorithm 1), taken every heartbeat
// by plugins/crv-reordering.ts:
//  - per constraint c: CRV_c = demand_c / supply_c, demand = tasks not yet started of jobs
//    that need c, supply = workers that satisfy c;
//  - per worker: E[W] from the Pollaczek-Khinchin formula (pk.ts) over its recent history:
//    lambda from the arrival times of the last H tasks it served, E[S] and E[S^2] from their
//    service times ("mu <- Avg(last_served_tasks), lambda <- Avg(inter_arrival_rate)").
//
// Example: constraint `isa = arm64` held by 1,200 workers while 3,000 tasks that need it
// wait -> CRV 2.5. A worker whose last 4 tasks arrived over 40 s (lambda = 0.1/s) and ran
// 2, 4, 6, 8 s (E[S] = 5, E[S^2] = 30) has rho = 0.5 and E[W] = 1 * 30 / 10 = 3 s.
import { pkWait } from "./pk.js";

export class WorkerHistory {
  readonly size: number;
  private readonly service: Float64Array;
  private readonly arrival: Float64Array;
  private readonly count: Int32Array;
  // running sums over the ring, so a heartbeat costs O(1) per worker
  private readonly s1: Float64Array;
  private readonly s2: Float64Array;

  constructor(workers: number, size: number) {
    this.size = size;
    this.service = new Float64Array(workers * size);
    this.arrival = new Float64Array(workers * size);
    this.count = new Int32Array(workers);
    this.s1 = new Float64Array(workers);
    this.s2 = new Float64Array(workers);
  }

  /** A task that arrived at `arrivedAt` and ran `service` seconds on worker w. */
  record(w: number, arrivedAt: number, service: number): void {
    const slot = w * this.size + (this.count[w] % this.size);
    if (this.count[w] >= this.size) {
      const old = this.service[slot];
      this.s1[w] -= old;
      this.s2[w] -= old * old;
    }
    this.service[slot] = service;
    this.arrival[slot] = arrivedAt;
    this.s1[w] += service;
    this.s2[w] += service * service;
    this.count[w]++;
  }

  /**
   * E[W] worker w would have at load `rho` with its own service moments: the PK wait at
   * lambda = rho / E[S] (0 before two tasks). Example: E[S] = 5, E[S^2] = 30, rho = 0.9 ->
   * 9 * 30 / 10 = 27 s; so E[W] > 27 s means this worker's measured load is above 0.9.
   */
  waitAtLoad(w: number, rho: number): number {
    const n = Math.min(this.count[w], this.size);
    if (n < 2) return 0;
    const es = this.s1[w] / n;
    if (!(es > 0)) return 0;
    return pkWait(rho / es, es, Math.max(this.s2[w] / n, es * es));
  }

  /**
   * E[W] of worker w at time `now`; 0 before it has served two tasks (no rate yet). lambda =
   * tasks in the window / (now - arrival of the oldest one in the window).
   */
  expectedWait(w: number, now: number): number {
    const c = this.count[w];
    const n = Math.min(c, this.size);
    if (n < 2) return 0;
    const es = this.s1[w] / n;
    if (!(es > 0)) return 0;
    const oldest = this.arrival[w * this.size + (c >= this.size ? c % this.size : 0)];
    const span = now - oldest;
    if (!(span > 0)) return Infinity;
    // running sums can drift below E[S]^2 by rounding; clamp to the Jensen bound
    return pkWait(n / span, es, Math.max(this.s2[w] / n, es * es));
  }
}

export class CrvTable {
  readonly demand: number[] = [];
  readonly value: number[] = [];
  /** CRV_threshold per constraint id (crv-threshold.ts), fixed when the id is first seen. */
  readonly threshold: number[] = [];
  /**
   * `thresholdOf(c)` gives constraint c's CRV_threshold; default 1 for every constraint (more
   * waiting tasks than workers that hold it).
   */
  constructor(private readonly supply: readonly number[], private readonly thresholdOf: (c: number) => number = () => 1) {}

  add(c: number, tasks: number): void {
    while (this.demand.length <= c) {
      this.threshold.push(this.thresholdOf(this.demand.length));
      this.demand.push(0);
      this.value.push(0);
    }
    this.demand[c] += tasks;
  }

  /** Recomputes every CRV; true when some constraint's CRV exceeds its threshold. */
  refresh(): boolean {
    let hot = false;
    for (let c = 0; c < this.demand.length; c++) {
      const s = this.supply[c];
      const v = s > 0 ? this.demand[c] / s : 0;
      this.value[c] = v;
      if (v > this.threshold[c]) hot = true;
    }
    return hot;
  }

  /** A job's CRV score: the largest CRV among its constraints (0 when unconstrained). */
  score(ids: readonly number[]): number {
    let m = 0;
    for (const c of ids) m = Math.max(m, this.value[c] ?? 0);
    return m;
  }

  /**
   * The largest CRV among the job's congested constraints (CRV above that constraint's
   * threshold), 0 when none is congested. Example: CRVs {isa: 1.5 (threshold 2.03), disks>4:
   * 1.2 (threshold 0.91)} -> 1.2.
   */
  congestedScore(ids: readonly number[]): number {
    let m = 0;
    for (const c of ids) {
      const v = this.value[c] ?? 0;
      if (v > (this.threshold[c] ?? Infinity)) m = Math.max(m, v);
    }
    return m;
  }

  /** True when constraint c's CRV exceeds its threshold. */
  congested(c: number): boolean {
    return (this.value[c] ?? 0) > (this.threshold[c] ?? Infinity);
  }
}
