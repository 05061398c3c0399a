// The HTML report: one self-contained offline file per run. uPlot's JS and CSS are inlined from
// node_modules when the report is rendered, the chart data travels as JSON in a script tag, and a
// Content-Security-Policy forbids any network access, so the file works from a mail attachment
// or an air-gapped machine and shows exactly the data of the run.
//
// What it shows per ScenarioReport: the scenario, seed, policies and every parameter; every
// table (as the CLI prints it, same number formatting, with why a column is 0 in every row); first
// what the scenario is about (its latency queues' completion per policy, scenario-point.ts), then
// each `report.charts` entry (per-queue allocation over time, drawn as steps, the latency queues
// never folded into "other"); and completion-time CDFs when the metrics carry them.
//
// Expected shape of `report.metrics` for the CDFs (what src/scenarios/common.ts metricsJson
// writes): metrics[policy].completionTimes[queue] = number[] (seconds, finished jobs only).
// Anything else in metrics is ignored here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ChartAxes, ScenarioReport, Series } from "../scenarios/scenario.js";
import type { Table } from "../scenarios/table.js";
import { formatCell } from "./table.js";
import { alignBands, alignSeries, cdfSeries, type Aligned } from "./chart-data.js";
import { CLIENT_SCRIPT } from "./html-client.js";
import { zeroColumnNotes } from "./column-notes.js";
import { latencyQueues, scenarioPoint } from "./scenario-point.js";

export interface HtmlReportOptions {
  /** Page title; default "fairsched report". */
  title?: string;
  /** Per-queue CDF charts are drawn for at most this many queues per report (plus "all jobs"). Default 12. */
  maxQueueCdfs?: number;
  /** Charts with more series draw the `maxSeries - 1` largest (by mean) and one "other" summing the rest. Default 8. */
  maxSeries?: number;
}

/** A log axis when positive values span more than this ratio (e.g. the LQ CDF: 56 s vs 209 s next to 3,000 s TQ jobs). */
const LOG_SPAN = 20;

export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  step: boolean;
  /** Fixed y-axis ends (null = automatic): CDFs span [0, 1], shares start at 0. */
  yRange: [number | null, number | null];
  /** Log x axis (values span decades). */
  logX: boolean;
  series: string[];
  data: Aligned;
  /** Grouped bars (x = category index plus the series' offset in its group). */
  bars: boolean;
  /** x-axis labels of a bar chart's categories (x = index), else null. */
  categories: string[] | null;
  /** Per series, its interval ends [lo, hi] on the x array (band around a line, error bars on a bar), or null. */
  bands: Array<[Array<number | null>, Array<number | null>] | null>;
  /**
   * Bars: the y axis ends here although some bars are taller (an outlier such as FIFO's LQ at 8,000 s
   * beside 70-200 s would flatten every other bar); each bar carries its value as a label. Else null.
   */
  yCap: number | null;
}

/**
 * The y end of a bar chart whose tallest bars are outliers: when the largest value exceeds
 * LOG_SPAN x the median of the positive values, 1.25 x the largest value that does not (null otherwise).
 */
export function outlierCap(data: Aligned): number | null {
  const ys = data.slice(1).flat().filter((v): v is number => v !== null && v > 0).sort((a, b) => a - b);
  if (ys.length < 3) return null;
  const median = ys[Math.floor((ys.length - 1) / 2)];
  const inRange = ys.filter((v) => v <= LOG_SPAN * median);
  return inRange.length < ys.length ? 1.25 * inRange[inRange.length - 1] : null;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside <script type="application/json">: "<", ">" and "&" become \u escapes
 * (so "</script>" or "<!--" in a queue name cannot end the block), and U+2028/2029 too. The
 * result is still valid JSON for JSON.parse.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Raw text inlined into <script>/<style>: neutralise any closing tag of that element. */
function rawText(code: string, tag: "script" | "style"): string {
  return code.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1").replace(/<!--/g, "<\\!--");
}

let assets: { js: string; css: string } | null = null;

/** uPlot's IIFE build and CSS, read once from node_modules (uplot is a runtime dependency for this). */
function uplotAssets(): { js: string; css: string } {
  if (assets) return assets;
  const req = createRequire(import.meta.url);
  let jsPath: string;
  let cssPath: string;
  try {
    jsPath = req.resolve("uplot/dist/uPlot.iife.min.js");
    cssPath = req.resolve("uplot/dist/uPlot.min.css");
  } catch {
    throw new Error("the HTML report needs the 'uplot' package (npm install uplot): it is inlined into the report");
  }
  assets = { js: readFileSync(jsPath, "utf8"), css: readFileSync(cssPath, "utf8") };
  return assets;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1140px;padding:0 16px;color:#1b1f23}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:36px}h3{font-size:15px;margin-top:22px}
table{border-collapse:collapse;margin:8px 0 4px}.scroll{overflow-x:auto;max-width:100%}td code{word-break:break-word}caption{text-align:left;font-weight:600;padding:4px 0}
th,td{border:1px solid #d0d7de;padding:3px 8px}th{background:#f6f8fa;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.notes{color:#57606a;margin:2px 0 12px;white-space:pre-wrap}.chart{min-height:300px;margin:8px 0 2px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:0 16px}.grid .chart{min-height:220px}
figure{margin:12px 0 20px}figcaption{font-weight:600}code{background:#f6f8fa;padding:0 3px}.muted{color:#57606a}
`;

/** Text that reads as a number with its interval ("56.31 ± 2.48"): right-aligned as numbers are. */
const NUMERIC_TEXT = /^-?[\d.]+(e[-+]?\d+)? ±/;

export function tableHtml(t: Table, params?: Record<string, unknown>): string {
  const head = t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
  const body = t.rows
    .map((r) => `<tr>${r.map((v) => `<td${typeof v === "number" || NUMERIC_TEXT.test(v ?? "") ? ' class="n"' : ""}>${escapeHtml(formatCell(v))}</td>`).join("")}</tr>`)
    .join("\n");
  const all = [...(t.notes ?? []), ...zeroColumnNotes(t, params)];
  const notes = all.length ? `<div class="notes">${escapeHtml(all.join("\n"))}</div>` : "";
  // a wide table (Phoenix's 16 columns) scrolls inside the page rather than widening it
  return `<div class="scroll"><table><caption>${escapeHtml(t.title)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>${notes}`;
}

function paramValue(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v) ?? String(v);
  return s.length > 300 ? s.slice(0, 300) + "…" : s;
}

function paramsHtml(r: ScenarioReport): string {
  const rows: Array<[string, string]> = [
    ["scenario", r.scenario],
    ["seed", String(r.seed)],
    ["policies", r.policies.join(", ")],
    ...Object.keys(r.params ?? {}).sort().map((k): [string, string] => [k, paramValue(r.params[k])]),
  ];
  return `<table class="params"><tbody>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(v)}</code></td></tr>`).join("")}</tbody></table>`;
}

/** True when the positive values span more than LOG_SPAN and none is <= 0 (a log axis cannot show 0). */
export function spansDecades(values: readonly (number | null)[]): boolean {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    if (v <= 0) return false;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return hi / lo > LOG_SPAN;
}

/**
 * At most `max` series: those named in `keep` (the queues the scenario is about), then the largest
 * by mean y up to `max - 1`, then "other (n)" summing the rest point by point (series sampled at
 * the same x, as the simulator's per-queue shares are).
 */
export function topSeries(series: readonly Series[], max: number, keep: ReadonlySet<string> = new Set()): Series[] {
  if (series.length <= max) return [...series];
  const mean = (s: Series) => s.y.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0) / Math.max(1, s.y.length);
  const ranked = [...series].sort((a, b) => Number(keep.has(b.name)) - Number(keep.has(a.name)) || mean(b) - mean(a));
  const kept = ranked.slice(0, Math.max(max - 1, series.filter((s) => keep.has(s.name)).length));
  const rest = ranked.slice(max - 1);
  const x = rest[0].x;
  const same = rest.every((s) => s.x.length === x.length && s.x.every((v, i) => v === x[i]));
  if (!same) return kept;
  const y = x.map((_, i) => rest.reduce((a, s) => a + (Number.isFinite(s.y[i]) ? s.y[i] : 0), 0));
  return [...series.filter((s) => kept.includes(s)), { name: `other (${rest.length})`, x, y }];
}

function completionTimes(r: ScenarioReport): Map<string, Record<string, number[]>> {
  const out = new Map<string, Record<string, number[]>>();
  for (const p of r.policies) {
    const m = (r.metrics as Record<string, unknown> | undefined)?.[p] as { completionTimes?: unknown } | undefined;
    const ct = m?.completionTimes;
    if (!ct || typeof ct !== "object") continue;
    const byQueue: Record<string, number[]> = {};
    for (const [q, v] of Object.entries(ct as Record<string, unknown>)) {
      if (Array.isArray(v)) byQueue[q] = v.filter((x): x is number => typeof x === "number");
    }
    out.set(p, byQueue);
  }
  return out;
}

function cdfCharts(r: ScenarioReport, prefix: string, maxQueues: number): { charts: ChartSpec[]; omitted: number } {
  const ct = completionTimes(r);
  if (ct.size === 0) return { charts: [], omitted: 0 };
  const charts: ChartSpec[] = [];
  const make = (title: string, series: Series[]) => {
    const data = alignSeries(series);
    const logX = spansDecades(data[0]);
    charts.push({
      id: `${prefix}-cdf${charts.length}`,
      title: logX ? `${title} (log time axis)` : title, xLabel: "completion time (s)", yLabel: "fraction of jobs", step: true, yRange: [0, 1], logX,
      series: series.map((s) => s.name), data, bars: false, categories: null, bands: series.map(() => null), yCap: null,
    });
  };
  make("All jobs", [...ct].map(([p, byQueue]) => cdfSeries(p, Object.values(byQueue).flat())));
  const queues = [...new Set([...ct.values()].flatMap((b) => Object.keys(b)))];
  for (const q of queues.slice(0, maxQueues)) {
    const series = [...ct].filter(([, b]) => (b[q]?.length ?? 0) > 0).map(([p, b]) => cdfSeries(p, b[q]));
    if (series.length) make(`Queue ${q}`, series);
  }
  return { charts, omitted: Math.max(0, queues.length - maxQueues) };
}

export function figure(c: ChartSpec): string {
  return `<figure><figcaption>${escapeHtml(c.title)}</figcaption><div class="chart" id="${escapeHtml(c.id)}"></div></figure>`;
}

/** Width of one group of bars (in category units), split among its series. */
const GROUP_WIDTH = 0.8;

/**
 * Bar series placed side by side within each category: series j of n at x + (j - (n-1)/2) * w,
 * w = GROUP_WIDTH / n, so uPlot draws each at its own slot (bar width = the smallest x step).
 */
export function groupBars(series: readonly Series[]): Series[] {
  const w = GROUP_WIDTH / Math.max(1, series.length);
  return series.map((s, j) => ({ ...s, x: s.x.map((x) => x + (j - (series.length - 1) / 2) * w) }));
}

/**
 * Chart specs of a report's `charts`: those with axes (`curves`: the scenario's own summary
 * charts) and the rest (`shares`: allocation over time, drawn as steps from 0).
 */
export function chartSpecs(charts: Record<string, Series[]>, chartAxes: Record<string, ChartAxes> | undefined, prefix: string, maxSeries: number, keep?: ReadonlySet<string>): { curves: ChartSpec[]; shares: ChartSpec[] } {
  const curves: ChartSpec[] = [];
  const shares: ChartSpec[] = [];
  Object.entries(charts).forEach(([name, all], j) => {
    const axes: ChartAxes | undefined = chartAxes?.[name];
    const bars = axes?.bars === true;
    const kept = topSeries(all, maxSeries, keep);
    const series = bars ? groupBars(kept) : kept;
    const data = alignSeries(series);
    const spec: ChartSpec = {
      id: `${prefix}-c${j}`, title: name, xLabel: axes?.x ?? "time (s)", yLabel: axes?.y ?? "dominant share",
      step: !bars && !axes?.lines, yRange: axes ? axes.yRange ?? [null, null] : [0, null], logX: !bars && axes?.logX === true && spansDecades(data[0]),
      series: series.map((s) => s.name), data, bars, categories: bars ? axes?.categories ?? null : null, bands: alignBands(series),
      yCap: bars ? outlierCap(data) : null,
    };
    (axes ? curves : shares).push(spec);
  });
  return { curves, shares };
}

/** The self-contained page around rendered sections and the charts they place. */
export function htmlPage(title: string, sections: string[], charts: ChartSpec[], generator: string): string {
  const { js, css } = uplotAssets();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="${escapeHtml(generator)}">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${rawText(css, "style")}</style>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${sections.join("\n")}
<script type="application/json" id="fairsched-data">${jsonForScript({ charts })}</script>
<script>${rawText(js, "script")}</script>
<script>${rawText(CLIENT_SCRIPT, "script")}</script>
</body>
</html>
`;
}

/** Renders reports into one self-contained HTML document. */
export function renderHtmlReport(reports: ScenarioReport[], opts: HtmlReportOptions = {}): string {
  const title = opts.title ?? "fairsched report";
  const maxQueues = opts.maxQueueCdfs ?? 12;
  const maxSeries = opts.maxSeries ?? 8;
  const charts: ChartSpec[] = [];
  const sections = reports.map((r, i) => {
    const prefix = `r${i}`;
    const { curves, shares } = chartSpecs(r.charts ?? {}, r.chartAxes, prefix, maxSeries, latencyQueues(r));
    const cdf = cdfCharts(r, prefix, maxQueues);
    const point = scenarioPoint(r);
    const pointSpecs = point ? chartSpecs(point.charts, point.chartAxes, `${prefix}-point`, Infinity).curves : [];
    // What the scenario is about first (its latency queues per policy), then its own curves;
    // without either, the all-jobs completion-time CDF.
    const lead = [...pointSpecs, ...curves];
    const summary = lead.length ? lead : cdf.charts.slice(0, 1);
    const restCdf = lead.length ? cdf.charts : cdf.charts.slice(1);
    charts.push(...summary, ...restCdf, ...shares);
    const parts = [
      `<section id="${prefix}"><h2>${escapeHtml(r.scenario)} <span class="muted">seed ${escapeHtml(String(r.seed))}, policies ${escapeHtml(r.policies.join(", "))}</span></h2>`,
    ];
    parts.push(...summary.map(figure));
    parts.push(`<h3>Results</h3>`, ...r.tables.map((t) => tableHtml(t, r.params)));
    if (restCdf.length) {
      parts.push(`<h3>Completion-time distributions (CDF)</h3>`, ...restCdf.map(figure));
      if (cdf.omitted) parts.push(`<p class="muted">${cdf.omitted} more queues not drawn (see the tables).</p>`);
    }
    if (shares.length) parts.push(`<h3>Allocation over time</h3>`, `<div class="grid">${shares.map(figure).join("")}</div>`);
    parts.push(`<h3>Parameters</h3>`, paramsHtml(r));
    parts.push(`</section>`);
    return parts.join("\n");
  });
  return htmlPage(title, sections, charts, `fairsched, ${reports.length} run${reports.length === 1 ? "" : "s"}`);
}
