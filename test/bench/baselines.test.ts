// The benchmark's baselines compute what they claim: YARN's bisection is weighted
// water-filling per resource, and discrete DRF reproduces the DRF paper's example.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { mesosDrf } from "../../bench/baselines/mesos-drf.js";
import { yarnFairShares } from "../../bench/baselines/yarn-fair-share.js";
import { drfInstance } from "../../bench/workload.js";

describe("baseline: YARN fair shares by bisection", () => {
  it("matches the kernel's single-resource water-filling within 1e-6", () => {
    const engine = loadEngineSync({ backend: "wasm" });
    for (const n of [1, 7, 300, 5000]) {
      const x = drfInstance(n, 1, 3);
      const shares = new Float64Array(n);
      yarnFairShares(n, 1, x.capacity, x.demands, x.weights, shares, new Float64Array(1));
      const r = engine.drf({ capacity: x.capacity, demands: x.demands, weights: x.weights });
      for (let i = 0; i < n; i++) expect(Math.abs(shares[i] - r.allocation[i])).toBeLessThanOrEqual(1e-6 * x.capacity[0] / n);
    }
  });

  it("gives every queue its demand when the resource is not contended", () => {
    const demands = new Float64Array([1, 2, 3]);
    const shares = new Float64Array(3);
    yarnFairShares(3, 1, new Float64Array([10]), demands, null, shares, new Float64Array(1));
    expect(Array.from(shares)).toEqual([1, 2, 3]);
  });

  it("splits each resource separately by weight", () => {
    const shares = new Float64Array(4);
    yarnFairShares(2, 2, new Float64Array([9, 18]), new Float64Array([100, 100, 100, 1]), new Float64Array([1, 2]), shares, new Float64Array(2));
    for (const [got, want] of [[shares[0], 3], [shares[2], 6], [shares[1], 17], [shares[3], 1]]) expect(Math.abs(got - want)).toBeLessThan(1e-6);
  });
});

describe("baseline: discrete DRF (Mesos)", () => {
  it("reproduces the DRF paper: <1 CPU, 4 GB> and <3 CPU, 1 GB> tasks on <9, 18> get 3 and 2 tasks", () => {
    const tasks = new Int32Array(2);
    const total = mesosDrf(2, 2, new Float64Array([9, 18]), new Float64Array([10, 40, 30, 10]), null, 10, tasks);
    expect(Array.from(tasks)).toEqual([3, 2]);
    expect(total).toBe(5);
  });

  it("never exceeds capacity and stays within a few tasks of the continuous DRF", () => {
    const engine = loadEngineSync({ backend: "js" });
    const n = 2000, k = 3, perQueue = 10;
    const x = drfInstance(n, k, 5);
    const tasks = new Int32Array(n);
    mesosDrf(n, k, x.capacity, x.demands, x.weights, perQueue, tasks);
    for (let r = 0; r < k; r++) {
      let used = 0;
      for (let i = 0; i < n; i++) used += (tasks[i] * x.demands[i * k + r]) / perQueue;
      expect(used).toBeLessThanOrEqual(x.capacity[r] * (1 + 1e-12));
    }
    const lam = engine.drf({ capacity: x.capacity, demands: x.demands, weights: x.weights }).fraction;
    let sumDiff = 0;
    for (let i = 0; i < n; i++) sumDiff += Math.abs(tasks[i] / perQueue - lam[i]);
    expect(sumDiff / n).toBeLessThan(0.1); // a tenth of a demand = one task, on average
  });
});
