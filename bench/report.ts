// Turning measurements into the printed table and bench/results.json. Ratios are always
// between cases measured in the same run (and, with rounds, in the same round).
import type { BenchModule, RatioSpec, ScenarioModule, Size } from "./cases.js";
import { median, type Measurement } from "./measure.js";

export type Results = Map<string, Measurement>; // key: `${caseId}@${n}x${k}`

export const resultKey = (id: string, s: Size): string => `${id}@${s.n}x${s.k}`;

export function formatTime(ms: number): string {
  if (ms < 1e-3) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1e3).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

const sizeLabel = (s: Size): string => `N=1e${Math.round(Math.log10(s.n))} K=${s.k}`;

/** a / b; with rounds on both sides, the median of the per-round ratios. */
export function ratioOf(a: Measurement | undefined, b: Measurement | undefined): number | undefined {
  if (!a || !b) return undefined;
  const ra = a.rounds, rb = b.rounds;
  if (ra && rb && ra.length === rb.length) return median(ra.map((x, i) => x / rb[i]));
  return a.medianMs / b.medianMs;
}

export function ratioAt(results: Results, r: RatioSpec, s: Size): number | undefined {
  return ratioOf(results.get(resultKey(r.numerator, s)), results.get(resultKey(r.denominator, s)));
}

/** time(largest N) / time(next N) at each K, when both were measured. */
export function scalingAt(results: Results, id: string, large: Size, small: Size): number | undefined {
  return ratioOf(results.get(resultKey(id, large)), results.get(resultKey(id, small)));
}

function fmtRatio(x: number | undefined): string {
  if (x === undefined) return "";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function meets(x: number | undefined, t: RatioSpec["target"]): string {
  if (!t || x === undefined) return "";
  return (t.op === "<=" ? x <= t.value : x >= t.value) ? " ✓" : " ✗";
}

/** Pairs (large, small) of sizes with the same K and consecutive N, for the scaling column. */
export function scalingPairs(sizes: Size[]): Array<[Size, Size]> {
  const pairs: Array<[Size, Size]> = [];
  for (const k of [...new Set(sizes.map((s) => s.k))]) {
    const ns = sizes.filter((s) => s.k === k).sort((a, b) => a.n - b.n);
    if (ns.length >= 2) pairs.push([ns[ns.length - 1], ns[ns.length - 2]]);
  }
  return pairs;
}

/** One markdown table per run: median times, then ratios, then the scaling columns. */
export function markdownTable(modules: BenchModule[], sizes: Size[], results: Results): string {
  const pairs = scalingPairs(sizes);
  const head = ["", ...sizes.map(sizeLabel), ...pairs.map(([l, s]) => `t(1e${Math.log10(l.n)})/t(1e${Math.log10(s.n)}) K=${l.k}`), "target"];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
  for (const m of modules) {
    lines.push(`| **${m.name}: median time per call** |${head.slice(1).map(() => "").join(" |")} |`);
    for (const c of m.cases) {
      const cells = sizes.map((s) => {
        const r = results.get(resultKey(c.id, s));
        return r ? formatTime(r.medianMs) : "";
      });
      const scal = pairs.map(([l, s]) => fmtRatio(scalingAt(results, c.id, l, s)));
      const target = c.target ?? "";
      lines.push(`| ${c.label} | ${[...cells, ...scal, target].join(" | ")} |`);
    }
    lines.push(`| **${m.name}: ratios (same run)** |${head.slice(1).map(() => "").join(" |")} |`);
    for (const r of m.ratios) {
      const cells = sizes.map((s) => {
        const x = ratioAt(results, r, s);
        return fmtRatio(x) + (s === sizes[sizes.length - 1] ? meets(x, r.target) : "");
      });
      const target = r.target ? `${r.target.op} ${r.target.value} at the largest size` : "";
      lines.push(`| ${r.label} | ${[...cells, ...pairs.map(() => ""), target].join(" | ")} |`);
    }
  }
  return lines.join("\n");
}

export type ScenarioResults = Map<string, Measurement>; // key: case id

export function scenarioRatio(results: ScenarioResults, r: RatioSpec): number | undefined {
  return ratioOf(results.get(r.numerator), results.get(r.denominator));
}

/** The fixed-size scenarios: one row per case (median CPU time, runs), then their ratios. */
export function scenarioTable(modules: ScenarioModule[], results: ScenarioResults): string {
  const lines = ["| scenario | median time | runs | target |", "|---|---:|---:|---|"];
  for (const m of modules) {
    lines.push(`| **${m.name}**: ${m.description} | | | |`);
    for (const c of m.cases) {
      const r = results.get(c.id);
      lines.push(`| ${c.label} | ${r ? formatTime(r.medianMs) : ""} | ${r ? r.samples : ""} | |`);
    }
    for (const r of m.ratios) {
      const x = scenarioRatio(results, r);
      lines.push(`| ratio: ${r.label} | ${fmtRatio(x)}${meets(x, r.target)} | | ${r.target ? `${r.target.op} ${r.target.value}` : ""} |`);
    }
  }
  return lines.join("\n");
}
