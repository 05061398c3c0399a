// What a benchmark module is: a named group of cases, each timing one call at one size,
// and the ratios between its cases that the report prints. bench/registry.ts lists them.

export interface Size {
  /** Queues (or items) */
  n: number;
  /** Resources */
  k: number;
}

export interface BenchCase {
  /** Unique id, e.g. "drf.kernel.wasm"; ratios refer to cases by id. */
  id: string;
  /** What the table shows. */
  label: string;
  /**
   * Stages everything the timed call needs at this size (inputs, engines, scratch) and
   * returns the call. Anything done here is not timed. Should throw if the call fails.
   */
  prepare(size: Size): () => unknown;
  /** What the issue asks of this case, for the table's target column. */
  target?: string;
}

export interface RatioSpec {
  /** e.g. "WASM / JS (DRF kernel)" */
  label: string;
  numerator: string;
  denominator: string;
  /** What the issue asks of it, for the report: e.g. "<= 0.5". */
  target?: { op: "<=" | ">="; value: number };
}

export interface BenchModule {
  name: string;
  cases: BenchCase[];
  ratios: RatioSpec[];
}

/**
 * A fixed-size scenario (not swept over N x K): e.g. the BoPF overhead experiment or a
 * 100,000-task simulator run. Slow calls, so a fixed number of runs instead of a time budget.
 */
export interface ScenarioCase {
  id: string;
  label: string;
  /** Builds the inputs (not timed) and returns the call. Should throw if the call fails. */
  prepare(): () => unknown;
  /** Untimed calls first, then timed calls (the median is reported). */
  runs: { warmup: number; samples: number };
  /** Facts about the last call for results.json (queue classes, task counts, ...). */
  info?(): Record<string, unknown>;
}

export interface ScenarioModule {
  name: string;
  /** What the scenario is, one line for the table. */
  description: string;
  cases: ScenarioCase[];
  ratios: RatioSpec[];
}
