// Scenarios: named, seeded experiments that run one or more policies and return a report.
// Queue-level scenarios use the simulator in src/sim/simulator.ts; Phoenix (node-level)
// and Justice (job-level deadline mode) run their own models but report the same way.
// The registry of scenarios by name is registry.ts.
import type { Engine } from "../engine/engine.js";
import type { Table } from "./table.js";

export interface ScenarioOptions {
  /** Policy names to compare; default: the scenario's own list. */
  policies?: string[];
  seed: number;
  /** Scenario parameters from the CLI (`--param name=value`), already parsed to numbers where numeric. */
  params?: Record<string, string | number>;
  engine: Engine;
  /** Progress in [0, 1], for a progress bar. */
  onProgress?: (fraction: number) => void;
}

/** One named time series (for plots): x = time in seconds. */
export interface Series {
  name: string;
  x: number[];
  y: number[];
  /**
   * Optional 95% interval ends per point (null: none at that point), e.g. the Student-t interval
   * of a mean over seeds: the report draws a band around a line, error bars on a bar.
   */
  lo?: Array<number | null>;
  hi?: Array<number | null>;
}

/** How the HTML report draws one `charts` entry. */
export interface ChartAxes {
  x: string;
  y: string;
  /** Straight lines between points (a curve over a parameter) rather than steps over time. */
  lines?: boolean;
  /** A log x axis (the values span decades, e.g. 1..32 TQs). */
  logX?: boolean;
  /**
   * Grouped bars over categories: x of a point is the index of its category in `categories`
   * (0, 1, ...), one bar per series in each group.
   */
  bars?: boolean;
  /** Names of the x categories of a bar chart (x = index). */
  categories?: string[];
  /** Fixed y-axis ends (null: automatic), e.g. [0, 1] for fractions. */
  yRange?: [number | null, number | null];
}

export interface ScenarioReport {
  scenario: string;
  seed: number;
  /** Every parameter that shaped the run (generator defaults included). */
  params: Record<string, unknown>;
  policies: string[];
  tables: Table[];
  /** Plot data: e.g. per policy, per queue allocation over time. Keyed by chart title. */
  charts?: Record<string, Series[]>;
  /** Axes of `charts` entries that are not shares over time (default: x time (s), y dominant share, steps). */
  chartAxes?: Record<string, ChartAxes>;
  /** Raw metrics, JSON-serialisable. */
  metrics: Record<string, unknown>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly defaultPolicies: string[];
  /**
   * Every `--param` name the scenario reads; any other name is an error (params.ts). Every
   * built-in declares it; a plugin that leaves it out gets no name check.
   */
  readonly params?: readonly string[];
  run(opts: ScenarioOptions): ScenarioReport;
}
