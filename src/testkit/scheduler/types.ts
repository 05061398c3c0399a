// Types of the whole-scheduler fuzzer (docs/testkit.md, "Fuzzing a whole scheduler over time").
// A scheduler under test is reached through one op at a time, in the JSON-lines ops of
// `fairsched serve` (docs/live-scheduler.md): a request object in, an answer object out.

export const SCHEDULER_PROPERTY_IDS = [
  "capacity", "guarantee", "no-preemption-cycle", "minimal-victims", "priority-consistent",
  "bounded-starvation", "long-run-share", "work-conservation", "split-resistance",
  "call-rate-independence", "determinism",
] as const;
export type SchedulerPropertyId = (typeof SCHEDULER_PROPERTY_IDS)[number];

/** One request of the protocol (`op` plus its fields; `time` on every request after init). */
export type SchedulerRequest = { op: string; time?: number } & Record<string, unknown>;

/** Where requests go: a command speaking JSON lines, or an in-process object behind an adapter. */
export interface SchedulerTarget {
  /** The answer object (an `{error}` answer is an answer, not a throw); rejects only when the target itself broke. */
  send(request: SchedulerRequest): Promise<Record<string, unknown>>;
  close?(): void;
}

/** What `init`'s answer may declare (`{"ok": true, "supports": {...}}`); absent = false. */
export interface SchedulerSupports {
  /** The schedule answer may carry `"preempted": [ids]` (tasks it stopped; they wait again). */
  preempt?: boolean;
  /** Queues may be added with a `parent` (trees). */
  trees?: boolean;
}

/** One tenant of a scenario. */
export interface ScenarioQueue {
  weight: number;
  /** Fraction of the capacity in dominant share (0 = none). */
  minShare: number;
  /** Every task of the queue asks for this vector. */
  demand: number[];
  /** The queue joins at its first job and leaves after its last (its waiting tasks cancelled). */
  churn: boolean;
}

export interface ScenarioJob {
  queue: number;
  at: number;
  tasks: number;
  /** Seconds each task runs once started. */
  duration: number;
}

/** A workload over time, generated and shrunk by fast-check; the driver turns it into ops. */
export interface Scenario {
  capacity: number[];
  queues: ScenarioQueue[];
  jobs: ScenarioJob[];
  /** split-resistance: queue 0 is also run as this many queues of weight w/k. */
  split: number;
}

/** A failure saved to replay: the property, the scenario and the options that judged it. */
export interface SchedulerCase {
  property: SchedulerPropertyId;
  scenario: Scenario;
  init: Record<string, unknown>;
  tolerance: number;
}

export interface SchedulerPropertyReport {
  property: SchedulerPropertyId;
  passed: boolean;
  /** Not checked, and why (an op the scheduler lacks, a property the policy does not claim). */
  skipped?: string;
  runs: number;
  seed: number;
  message?: string;
  /** The failing run as JSON lines: a `{"fuzz": case}` line, then the requests (replayable by `--replay` and by hand). */
  trace?: string;
  counterexample?: SchedulerCase;
}

export interface SchedulerReport {
  passed: boolean;
  seed: number;
  properties: SchedulerPropertyReport[];
  failed: SchedulerPropertyId[];
  /** Requests sent, and seconds spent, over the whole check. */
  ops: number;
  seconds: number;
}
