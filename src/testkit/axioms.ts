// The fairness axioms (docs/testkit.md), each as: an arbitrary of its input (a cluster state
// plus what the axiom varies) and a check that returns null or one sentence saying what broke.
// Stated for Leontief demands: queue i's utility is the fraction of its demand it can run.
// Task-granular mode relaxes each axiom by "one task per queue": slack = the sum over queues
// of one task's dominant share (a queue handed whole tasks can be a task short of, or over,
// its divisible share; the docs give the derivation).
import fc from "fast-check";
import type { Engine } from "../engine/engine.js";
import { clusterStateArb, cloneState, type ClusterStateOptions } from "./arbitraries.js";
import { dominantShare, fmt, fmtPair, utility, waterFill } from "./model.js";
import type { AxiomId, AxiomInput, ClusterState, LieStrategy } from "./types.js";

/** What a check may call: the allocator (answers validated to N x K, faults thrown as AllocatorFault). */
export interface AxiomContext {
  allocate(state: ClusterState): Promise<number[][]>;
  /** Relative tolerance of every comparison (default 1e-9). */
  tolerance: number;
  /** matches-drf: allowed difference per entry, as a fraction of the resource's capacity (default 1e-7). */
  drfTolerance: number;
  /** Task-granular mode: the relaxed forms. */
  tasks: boolean;
  engine: () => Engine;
}

/** A crash, hang, garbage or wrong shape: a finding about the allocator, reported with its input. */
export class AllocatorFault extends Error {
  /** `hang`: the allocator did not answer in time (such a case is reported unshrunk: shrinking would wait on every hang). */
  constructor(message: string, readonly state: ClusterState, readonly hang = false) {
    super(message);
    this.name = "AllocatorFault";
  }
}

export interface Axiom {
  id: AxiomId;
  /** One line for --help and the docs. */
  summary: string;
  input(options: Required<ClusterStateOptions>): fc.Arbitrary<AxiomInput>;
  check(input: AxiomInput, ctx: AxiomContext): Promise<string | null>;
}

const n = (s: ClusterState) => s.demands.length;
const k = (s: ClusterState) => s.capacity.length;
const hasDemand = (d: number[]) => d.some((v) => v > 0);
const delta = (s: ClusterState, i: number) => dominantShare(s.demands[i], s.capacity);
/** lambda_i: the fraction of its demand queue i can run with what it got. */
const lambdas = (s: ClusterState, a: number[][]) => s.demands.map((d, i) => utility(d, a[i]));

/** Task mode: the sum over queues of one task's dominant share (0 in divisible mode). */
function taskSlack(s: ClusterState, ctx: AxiomContext): number {
  if (!ctx.tasks) return 0;
  let sum = 0;
  for (let i = 0; i < n(s); i++) sum += delta(s, i) / (s.tasks?.[i] ?? 1);
  return sum;
}
const oneTask = (s: ClusterState, i: number, ctx: AxiomContext) => (ctx.tasks ? delta(s, i) / (s.tasks?.[i] ?? 1) : 0);

/** a ~ b: |a - b| <= tol * max(|a|, |b|, scale) + slack. */
const near = (a: number, b: number, tol: number, scale: number, slack = 0) => Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b), scale) + slack;

const withState = (arb: fc.Arbitrary<ClusterState>): fc.Arbitrary<AxiomInput> => arb.map((state) => ({ state }));

/** Sum of the useful allocations (lambda_j * D_j) per resource. */
function usefulUse(s: ClusterState, lam: number[]): number[] {
  const used = new Array<number>(k(s)).fill(0);
  s.demands.forEach((d, j) => d.forEach((v, r) => { used[r] += lam[j] * v; }));
  return used;
}

const feasibility: Axiom = {
  id: "feasibility",
  summary: "no resource over capacity, no negative amount",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    for (let r = 0; r < k(s); r++) {
      let sum = 0;
      for (let i = 0; i < n(s); i++) {
        if (a[i][r] < -ctx.tolerance * s.capacity[r]) return `queue ${i} gets ${fmt(a[i][r])} of resource ${r}, a negative amount`;
        sum += a[i][r];
      }
      if (sum > s.capacity[r] * (1 + ctx.tolerance)) {
        const [got, cap] = fmtPair(sum, s.capacity[r]);
        return `resource ${r} is over-allocated: ${got} handed out of capacity ${cap}`;
      }
    }
    return null;
  },
};

const pareto: Axiom = {
  id: "pareto-efficiency",
  summary: "every unsatisfied queue is blocked by a saturated resource it needs (task mode: its next task does not fit)",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    const lam = lambdas(s, a);
    const used = usefulUse(s, lam);
    for (let i = 0; i < n(s); i++) {
      const d = s.demands[i];
      if (!hasDemand(d) || lam[i] >= 1 - ctx.tolerance) continue;
      const task = d.map((v) => (ctx.tasks ? v / (s.tasks?.[i] ?? 1) : 0));
      const blocked = d.some((v, r) => v > 0 && used[r] + task[r] >= s.capacity[r] * (1 - ctx.tolerance));
      if (!blocked) {
        const free = s.capacity.map((c, r) => fmt(c - used[r]));
        return `queue ${i} runs ${fmt(lam[i])} of its demand while every resource it needs has room${ctx.tasks ? " for one more of its tasks" : ""} (free: [${free.join(", ")}])`;
      }
    }
    return null;
  },
};

const sharingIncentive: Axiom = {
  id: "sharing-incentive",
  summary: "each queue runs at least what its weighted 1/N slice of the cluster would run: lambda_i >= min(1, (w_i / W) / delta_i)",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    const lam = lambdas(s, a);
    let W = 0;
    s.demands.forEach((d, i) => { if (hasDemand(d)) W += s.weights[i]; });
    const slack = taskSlack(s, ctx);
    for (let i = 0; i < n(s); i++) {
      const di = delta(s, i);
      if (di === 0) continue;
      const fair = (s.weights[i] / W) * (1 - slack - oneTask(s, i, ctx));
      const bound = Math.min(1, fair / di);
      if (lam[i] < bound * (1 - ctx.tolerance) - 1e-12) {
        const [got, want] = fmtPair(lam[i], bound);
        return `queue ${i} (weight ${fmt(s.weights[i])} of ${fmt(W)}) runs ${got} of its demand, less than the ${want} its weighted share of the cluster${ctx.tasks ? " less one task per queue" : ""} would run`;
      }
    }
    return null;
  },
};

const envyFreeness: Axiom = {
  id: "envy-freeness",
  summary: "no unsatisfied queue would run more with another queue's allocation scaled by their weights (task mode: less one task)",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    const lam = lambdas(s, a);
    for (let i = 0; i < n(s); i++) {
      if (lam[i] >= 1 - ctx.tolerance || !hasDemand(s.demands[i])) continue;
      for (let j = 0; j < n(s); j++) {
        if (i === j) continue;
        const t = s.tasks?.[j] ?? 1;
        const bundle = a[j].map((v, r) => Math.max(0, v - (ctx.tasks ? s.demands[j][r] / t : 0)) * s.weights[i] / s.weights[j]);
        const u = utility(s.demands[i], bundle);
        if (u > lam[i] * (1 + ctx.tolerance) + 1e-12) {
          const [other, own] = fmtPair(u, lam[i]);
          return `queue ${i} envies queue ${j}: with queue ${j}'s allocation${ctx.tasks ? " less one task" : ""} scaled by weights ${fmt(s.weights[i])}/${fmt(s.weights[j])} it would run ${other} of its demand, not ${own}`;
        }
      }
    }
    return null;
  },
};

const LIES: LieStrategy[] = ["scale-up-one", "scale-down-one", "add-unused", "copy-other", "shrink-to-bottleneck", "scale-all", "random"];

/** The reported vector of one lie, or null when the strategy does not apply. */
function lie(s: ClusterState, i: number, strategy: LieStrategy, pick: number, factor: number, random: number[]): number[] | null {
  const truth = s.demands[i];
  const K = k(s);
  switch (strategy) {
    case "scale-up-one": { const r = truth.slice(); r[pick % K] *= 1 + factor; return r; }
    case "scale-down-one": { const r = truth.slice(); r[pick % K] /= 1 + factor; return r; }
    case "add-unused": {
      const unused = truth.map((v, c) => (v === 0 ? c : -1)).filter((c) => c >= 0);
      if (unused.length === 0) return null;
      const r = truth.slice();
      r[unused[pick % unused.length]] = random[0] > 0 ? random[0] : factor;
      return r;
    }
    case "copy-other": return n(s) > 1 ? s.demands[(i + 1 + (pick % (n(s) - 1))) % n(s)].slice() : null;
    case "shrink-to-bottleneck": {
      // report only the dominant resource (the others scaled down): "I only need the bottleneck"
      let dom = 0;
      for (let r = 1; r < K; r++) if (truth[r] / s.capacity[r] > truth[dom] / s.capacity[dom]) dom = r;
      return truth.map((v, r) => (r === dom ? v : v / (1 + factor) * (pick % 2)));
    }
    case "scale-all": return truth.map((v) => v * (pick % 2 ? 1 + factor : 1 / (1 + factor)));
    case "random": return random.slice(0, K);
  }
}

const strategyproofness: Axiom = {
  id: "strategyproofness",
  summary: "no queue runs more of its true demand by reporting another vector (7 lie strategies)",
  input: (o) => {
    const lieArb = fc.record({
      strategy: fc.constantFrom(...LIES),
      pick: fc.nat(),
      factor: fc.double({ min: 0.01, max: 20, noNaN: true, noDefaultInfinity: true }),
      random: fc.array(fc.oneof(fc.constant(0), fc.double({ min: o.demand.min, max: o.demand.max, noNaN: true, noDefaultInfinity: true })), { minLength: o.maxResources, maxLength: o.maxResources }),
    });
    return fc.tuple(clusterStateArb(o), fc.nat(), fc.array(lieArb, { minLength: 1, maxLength: 6 })).map(([state, who, raw]) => {
      const liar = who % n(state);
      const lies = raw.flatMap((l) => {
        const report = lie(state, liar, l.strategy, l.pick, l.factor, l.random);
        return report ? [{ strategy: l.strategy, report }] : [];
      });
      return { state, liar, lies };
    });
  },
  async check({ state: s, liar, lies }, ctx) {
    const i = liar!;
    const truth = s.demands[i];
    const honest = await ctx.allocate(s);
    const uHonest = utility(truth, honest[i]);
    const di = delta(s, i);
    for (const l of lies!) {
      const told = cloneState(s);
      told.demands[i] = l.report.slice();
      const out = await ctx.allocate(told);
      const uLie = utility(truth, out[i]);
      const slack = ctx.tasks && di > 0 ? (taskSlack(s, ctx) + taskSlack(told, ctx)) / di : 0;
      if (uLie > uHonest * (1 + ctx.tolerance) + 1e-12 + slack) {
        const [lying, honestly] = fmtPair(uLie, uHonest);
        return `queue ${i} runs ${lying} of its true demand by reporting [${l.report.join(", ")}] (${l.strategy}) instead of [${truth.join(", ")}], ${honestly} when honest`;
      }
    }
    return null;
  },
};

/** Each queue's water-filling share of resource r, checked against what it can use of r. */
async function waterFilled(s: ClusterState, r: number, ctx: AxiomContext, what: string): Promise<string | null> {
  const a = await ctx.allocate(s);
  const lam = lambdas(s, a);
  const expected = waterFill(s.capacity[r], s.demands.map((d) => d[r]), s.weights);
  const slack = taskSlack(s, ctx) * s.capacity[r];
  for (let i = 0; i < n(s); i++) {
    const got = lam[i] * s.demands[i][r];
    if (!near(got, expected[i], ctx.tolerance, s.capacity[r], slack)) {
      const [g, e] = fmtPair(got, expected[i]);
      return `${what}: queue ${i} can use ${g} of resource ${r}, weighted water-filling gives it ${e}`;
    }
  }
  return null;
}

const bottleneck: Axiom = {
  id: "bottleneck-fairness",
  summary: "when one resource is every queue's dominant resource, it is split by weighted water-filling",
  input: (o) => clusterStateArb({ ...o, minResources: Math.max(2, o.minResources), maxResources: Math.max(2, o.maxResources) }).map((x) => {
    // make resource 0 everyone's dominant resource
    const demands = x.demands.map((d) => [Math.max(...d.map((v, c) => v / x.capacity[c])) * x.capacity[0], ...d.slice(1)]);
    return { state: { ...x, demands } };
  }),
  check: ({ state }, ctx) => waterFilled(state, 0, ctx, "resource 0 is everyone's bottleneck"),
};

const singleResource: Axiom = {
  id: "single-resource-fairness",
  summary: "with one resource the allocation is weighted water-filling (max-min fairness)",
  input: (o) => withState(clusterStateArb({ ...o, minResources: 1, maxResources: 1 })),
  check: ({ state }, ctx) => waterFilled(state, 0, ctx, "one resource"),
};

const populationMonotonicity: Axiom = {
  id: "population-monotonicity",
  summary: "when a queue leaves, no other queue runs less (all demands positive; with zeros DRF itself fails it)",
  input: (o) => fc.tuple(clusterStateArb({ ...o, allPositive: true, minQueues: Math.max(2, o.minQueues), maxQueues: Math.max(2, o.maxQueues) }), fc.nat())
    .map(([state, who]) => ({ state, leaving: who % n(state) })),
  async check({ state: s, leaving }, ctx) {
    const before = lambdas(s, await ctx.allocate(s));
    const without = cloneState(s);
    without.demands[leaving!] = without.demands[leaving!].map(() => 0);
    const after = lambdas(without, await ctx.allocate(without));
    for (let j = 0; j < n(s); j++) {
      if (j === leaving) continue;
      const slack = ctx.tasks ? (taskSlack(s, ctx) + taskSlack(without, ctx)) / delta(s, j) : 0;
      if (after[j] < before[j] * (1 - ctx.tolerance) - 1e-12 - slack) {
        const [a, b] = fmtPair(after[j], before[j]);
        return `queue ${j} runs ${a} of its demand after queue ${leaving} leaves, ${b} before`;
      }
    }
    return null;
  },
};

const orderIndependence: Axiom = {
  id: "order-independence",
  summary: "renumbering the queues renumbers the allocation and changes nothing else",
  input: (o) => fc.tuple(clusterStateArb(o), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: o.maxQueues, maxLength: o.maxQueues }))
    .map(([state, keys]) => {
      const N = n(state);
      // a permutation from sort keys: shrinks toward the identity
      const permutation = [...Array(N).keys()].sort((a, b) => keys[a] - keys[b] || a - b);
      return { state, permutation: permutation.some((p, i) => p !== i) ? permutation : permutation.reverse() };
    }),
  async check({ state: s, permutation }, ctx) {
    const perm = permutation!;
    const base = lambdas(s, await ctx.allocate(s));
    const p: ClusterState = { capacity: s.capacity.slice(), demands: perm.map((q) => s.demands[q].slice()), weights: perm.map((q) => s.weights[q]) };
    if (s.offsets) p.offsets = perm.map((q) => s.offsets![q]);
    if (s.tasks) p.tasks = perm.map((q) => s.tasks![q]);
    const permuted = lambdas(p, await ctx.allocate(p));
    const slack = taskSlack(s, ctx);
    for (let i = 0; i < perm.length; i++) {
      const q = perm[i];
      const d = delta(s, q);
      if (!near(permuted[i] * d, base[q] * d, ctx.tolerance, Math.min(1, d), slack)) {
        const [b, p2] = fmtPair(base[q], permuted[i]);
        return `queue ${q} runs ${b} of its demand, but ${p2} when the queues are renumbered [${perm.join(", ")}] (it becomes queue ${i})`;
      }
    }
    return null;
  },
};

const determinism: Axiom = {
  id: "determinism",
  summary: "the same input twice gives the same allocation, bit for bit",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    const b = await ctx.allocate(s);
    for (let i = 0; i < n(s); i++) {
      for (let r = 0; r < k(s); r++) {
        if (!Object.is(a[i][r], b[i][r])) return `the same input gave queue ${i} ${a[i][r]} of resource ${r} the first time and ${b[i][r]} the second`;
      }
    }
    return null;
  },
};

const matchesDrf: Axiom = {
  id: "matches-drf",
  summary: "the allocation equals the reference engine's weighted DRF (progressive filling), entry by entry within drfTolerance x capacity",
  input: (o) => withState(clusterStateArb(o)),
  async check({ state: s }, ctx) {
    const a = await ctx.allocate(s);
    const ref = ctx.engine().drf({ capacity: s.capacity, demands: s.demands, weights: s.weights, offsets: s.offsets });
    const slack = taskSlack(s, ctx);
    for (let i = 0; i < n(s); i++) {
      for (let r = 0; r < k(s); r++) {
        const want = ref.allocation[i * k(s) + r];
        if (Math.abs(a[i][r] - want) > (ctx.drfTolerance + slack) * s.capacity[r]) {
          const [got, drf] = fmtPair(a[i][r], want);
          return `queue ${i} gets ${got} of resource ${r}, DRF gives ${drf} (lambda ${fmt(ref.fraction[i])})`;
        }
      }
    }
    return null;
  },
};

/** Every axiom, by id, in report order. */
export const AXIOMS: ReadonlyMap<AxiomId, Axiom> = new Map(
  [feasibility, pareto, sharingIncentive, envyFreeness, strategyproofness, bottleneck, singleResource, populationMonotonicity, orderIndependence, determinism, matchesDrf]
    .map((a) => [a.id, a]),
);
