// The test kit's public data: a cluster state handed to an allocator, what it returns, and
// the report of a check. Plain JSON-serialisable data so a case can be saved and replayed
// from any language (docs/testkit.md describes the wire protocol).

/** One allocation problem: K resources, N queues (Leontief demands: queue i wants demands[i] in fixed proportion). */
export interface ClusterState {
  /** Capacity per resource, length K, every entry > 0. */
  capacity: number[];
  /** Outstanding demand per queue: N rows of K entries >= 0. */
  demands: number[][];
  /** Weight per queue (> 0), length N (1 when the generator is unweighted). */
  weights: number[];
  /** Offset per queue (>= 0), long-term fairness (docs/testkit.md); present only when generated. */
  offsets?: number[];
  /** Task-granular mode: queue i's demand is tasks[i] equal tasks of demands[i] / tasks[i]. */
  tasks?: number[];
}

/** N rows of K (or a flat queue-major array of N*K) resource amounts. */
export type Allocation = ArrayLike<number> | ArrayLike<ArrayLike<number>>;

/** The allocator under test: sync or async. It may not keep or change `state` (each call gets a fresh copy). */
export type Allocator = (state: ClusterState) => Allocation | Promise<Allocation>;

/** The axiom identifiers (docs/testkit.md defines each and its task-granular form). */
export const AXIOM_IDS = [
  "feasibility",
  "pareto-efficiency",
  "sharing-incentive",
  "envy-freeness",
  "strategyproofness",
  "bottleneck-fairness",
  "single-resource-fairness",
  "population-monotonicity",
  "order-independence",
  "determinism",
  "matches-drf",
] as const;

export type AxiomId = (typeof AXIOM_IDS)[number];

/** A failing input, self-contained: replay it with `replayCase` or `fairsched fuzz --replay`. */
export interface FuzzCase {
  axiom: AxiomId;
  /** Task-granular mode (relaxed axioms) was on. */
  tasks: boolean;
  /** Relative tolerance the check used. */
  tolerance: number;
  /** The axiom's input: `state` plus what the axiom varies (a lie, a permutation, a leaving queue). */
  input: AxiomInput;
}

/** What one axiom check is given. */
export interface AxiomInput {
  state: ClusterState;
  /** strategyproofness: the queue that lies and its reported vectors (one run each). */
  liar?: number;
  lies?: Array<{ strategy: LieStrategy; report: number[] }>;
  /** order-independence: permuted[i] = original queue permutation[i]. */
  permutation?: number[];
  /** population-monotonicity: the queue that leaves (its demand set to zero). */
  leaving?: number;
}

export type LieStrategy = "scale-up-one" | "scale-down-one" | "add-unused" | "copy-other" | "shrink-to-bottleneck" | "scale-all" | "random";

export interface AxiomReport {
  axiom: AxiomId;
  passed: boolean;
  /** Inputs tried (before shrinking). */
  runs: number;
  /** Set when no input was tried to completion within the time limit. */
  interrupted?: boolean;
  /** One sentence saying what broke, for the shrunk counterexample. */
  message?: string;
  /** The shrunk counterexample. */
  counterexample?: FuzzCase;
  /** fast-check seed and path: `checkAllocator(f, { axioms: [axiom], seed, path })` reruns the failing input. */
  seed: number;
  path?: string;
}

export interface CheckReport {
  passed: boolean;
  seed: number;
  tasks: boolean;
  axioms: AxiomReport[];
  /** The ids of the failed axioms. */
  failed: AxiomId[];
}
