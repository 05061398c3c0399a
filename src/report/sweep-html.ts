// A sweep as one self-contained HTML page (same page and drawing code as src/report/html.ts):
// charts of each metric's mean over the seeds with its 95% t-interval first, then the tables
// (seed aggregates with several seeds), then the grid. A numeric grid parameter with several
// values is a chart's x axis (log when it spans decades), one line with its band per policy and
// remaining parameters; without one, grouped bars per policy with error bars.
import { aggregateSweep, type AggregatedTable } from "../sweep/aggregate.js";
import type { MergedSweep } from "../sweep/lines.js";
import type { ChartAxes, Series } from "../scenarios/scenario.js";
import { chartSpecs, escapeHtml, figure, htmlPage, tableHtml, type ChartSpec } from "./html.js";
import { sweepResultTables } from "./sweep-text.js";

export interface SweepHtmlOptions {
  title?: string;
  /** Charts per table: its first `maxMetrics` metric columns. Default 8. */
  maxMetrics?: number;
  /** Tables charted: the first `maxTables` (the first is the scenario's summary). Default 1. */
  maxTables?: number;
  /** Series per chart: the first `maxSeries` (means of different cells do not sum into an "other"). Default 10. */
  maxSeries?: number;
}

type Charts = { charts: Record<string, Series[]>; chartAxes: Record<string, ChartAxes> };

const describeKey = (names: string[], values: Array<string | number | null>) => names.map((n, i) => `${n}=${values[i]}`).join(" ");

/** The charts of one aggregated table. */
export function sweepCharts(t: AggregatedTable, m: MergedSweep, maxMetrics: number, maxSeries = 10): Charts {
  const spec = m.header.spec.params ?? {};
  const numeric = t.paramKeys.filter((k) => spec[k].length > 1 && spec[k].every((v) => typeof v === "number"));
  // parameters with one value name no line or bar: they are in the grid table
  const varying = t.paramKeys.filter((k) => spec[k].length > 1);
  const paramsOf = (keys: string[], values: Array<string | number>) => describeKey(keys, keys.map((k) => values[t.paramKeys.indexOf(k)]));
  const out: Charts = { charts: {}, chartAxes: {} };
  const metrics = t.metricColumns.slice(0, maxMetrics);
  metrics.forEach((metric, j) => {
    if (numeric.length) {
      const xKey = numeric[0];
      const xi = t.paramKeys.indexOf(xKey);
      const others = varying.filter((k) => k !== xKey);
      const bySeries = new Map<string, Series>();
      for (const r of t.rows) {
        const s = r.stats[j];
        if (!s) continue;
        const name = [r.policy, paramsOf(others, r.params), describeKey(t.labelColumns, r.labels)].filter(Boolean).join(" ");
        let series = bySeries.get(name);
        if (!series) bySeries.set(name, (series = { name, x: [], y: [], lo: [], hi: [] }));
        series.x.push(r.params[xi] as number);
        series.y.push(s.mean);
        series.lo!.push(s.lo);
        series.hi!.push(s.hi);
      }
      const all = [...bySeries.values()];
      const title = `${metric} vs ${xKey}${all.length > maxSeries ? ` (the first ${maxSeries} of ${all.length} lines)` : ""}`;
      // points in x order (the grid lists values as given)
      out.charts[title] = all.slice(0, maxSeries).map((s) => {
        const order = s.x.map((_, i) => i).sort((a, b) => s.x[a] - s.x[b]);
        return { name: s.name, x: order.map((i) => s.x[i]), y: order.map((i) => s.y[i]), lo: order.map((i) => s.lo![i]), hi: order.map((i) => s.hi![i]) };
      });
      out.chartAxes[title] = { x: xKey, y: metric, lines: true, logX: true };
    } else {
      // categories: the policies (with the other parameters); one bar series per label combination
      const cats: string[] = [];
      const bySeries = new Map<string, Series>();
      for (const r of t.rows) {
        const s = r.stats[j];
        if (!s) continue;
        const cat = [r.policy, paramsOf(varying, r.params)].filter(Boolean).join(" ");
        if (!cats.includes(cat)) cats.push(cat);
        const name = describeKey(t.labelColumns, r.labels) || metric;
        let series = bySeries.get(name);
        if (!series) bySeries.set(name, (series = { name, x: [], y: [], lo: [], hi: [] }));
        series.x.push(cats.indexOf(cat));
        series.y.push(s.mean);
        series.lo!.push(s.lo);
        series.hi!.push(s.hi);
      }
      const all = [...bySeries.values()];
      const title = `${metric} per policy${all.length > maxSeries ? ` (the first ${maxSeries} of ${all.length} series)` : ""}`;
      out.charts[title] = all.slice(0, maxSeries);
      out.chartAxes[title] = { x: "policy", y: metric, bars: true, categories: cats };
    }
  });
  return out;
}

function gridHtml(m: MergedSweep): string {
  const s = m.header.spec;
  const rows: Array<[string, string]> = [
    ["scenario", s.scenario], ["policies", s.policies.join(", ")], ["seeds", s.seeds.join(", ")],
    ...Object.entries(s.params ?? {}).map(([k, v]): [string, string] => [k, v.join(", ")]),
    ["cells", `${m.header.cells - m.missing.length}/${m.header.cells}${m.missing.length ? ` (missing: ${m.missing.join(", ")})` : ""}`],
    ["fingerprint", m.header.fingerprint],
  ];
  return `<table class="params"><tbody>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(v)}</code></td></tr>`).join("")}</tbody></table>`;
}

/** Renders a merged sweep into one self-contained HTML document. */
export function renderSweepHtml(m: MergedSweep, opts: SweepHtmlOptions = {}): string {
  const s = m.header.spec;
  const title = opts.title ?? `fairsched sweep: ${s.scenario}`;
  const charts: ChartSpec[] = [];
  const n = s.seeds.length;
  const chartHtml = aggregateSweep(m).slice(0, opts.maxTables ?? 1).map((t, i) => {
    const c = sweepCharts(t, m, opts.maxMetrics ?? 8, opts.maxSeries ?? 10);
    const specs = chartSpecs(c.charts, c.chartAxes, `t${i}`, Infinity).curves;
    charts.push(...specs);
    if (!specs.length) return "";
    const what = n > 1 ? `mean and 95% t-interval over ${n} seeds (${specs[0].bars ? "error bars" : "bands"})` : "one seed";
    return `<h3>${escapeHtml(t.name)} <span class="muted">${escapeHtml(what)}</span></h3>\n<div class="grid">${specs.map(figure).join("")}</div>`;
  });
  const section = [
    `<section id="sweep"><h2>${escapeHtml(s.scenario)} <span class="muted">sweep of ${m.header.cells} cells, seeds ${escapeHtml(s.seeds.join(", "))}</span></h2>`,
    ...chartHtml,
    `<h3>Results</h3>`,
    ...sweepResultTables(m).map((t) => tableHtml(t)),
    `<h3>Grid</h3>`,
    gridHtml(m),
    `</section>`,
  ].join("\n");
  return htmlPage(title, [section], charts, `fairsched sweep ${m.header.fingerprint}`);
}
