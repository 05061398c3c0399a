// What a YARN user gets instead of DRF progressive filling: the FairScheduler's fair-share
// computation (ComputeFairShares.computeShares), which DominantResourceFairnessPolicy runs
// once per resource type. For resource r it looks for the weight-to-resource ratio R with
//   sum_i min(demand_i, R * weight_i) = min(capacity, total demand)
// by doubling R from 1 until it is an upper bound, then 25 bisection steps
// (COMPUTE_FAIR_SHARES_ITERATIONS), and gives queue i min(demand_i, R * weight_i).
// YARN counts resources in integer units (MB, vcores) and truncates shares; this port keeps
// doubles so it can be compared with the kernel. No min/max shares (none are configured).
// Cost: O(K * N * (25 + doublings)).

export const YARN_BISECTION_STEPS = 25;

/** Resource used on r if every queue gets min(demand, ratio * weight). */
function usedAtRatio(ratio: number, r: number, n: number, k: number, demands: Float64Array, weights: Float64Array | null): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = demands[i * k + r];
    const s = ratio * (weights ? weights[i] : 1);
    sum += d < s ? d : s;
  }
  return sum;
}

/**
 * Writes into `shares` (N*K, queue-major) each queue's fair share of each resource, and
 * returns the ratio R found per resource in `ratios` (K). Inputs are assumed valid.
 */
export function yarnFairShares(
  n: number, k: number, capacity: Float64Array, demands: Float64Array, weights: Float64Array | null,
  shares: Float64Array, ratios: Float64Array,
): void {
  for (let r = 0; r < k; r++) {
    let totalDemand = 0;
    for (let i = 0; i < n; i++) totalDemand += demands[i * k + r];
    const target = Math.min(capacity[r], totalDemand);
    let hi = 1.0;
    while (usedAtRatio(hi, r, n, k, demands, weights) < target) hi *= 2.0;
    let lo = 0;
    for (let step = 0; step < YARN_BISECTION_STEPS; step++) {
      const mid = (lo + hi) / 2.0;
      const used = usedAtRatio(mid, r, n, k, demands, weights);
      if (used === target) {
        hi = mid;
        break;
      } else if (used < target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    ratios[r] = hi;
    for (let i = 0; i < n; i++) {
      const d = demands[i * k + r];
      const s = hi * (weights ? weights[i] : 1);
      shares[i * k + r] = d < s ? d : s;
    }
  }
}
