// Summarizes bench/phoenix/reproduce.mjs output (JSON lines on stdin): per config and policy the
// mean short-job p50/p90/p99 over seeds with a 95% t interval, and per config the geometric mean
// of the per-seed ratio (policy p99 / Phoenix p99) with a 95% interval on the log ratios.
import { readFileSync } from "node:fs";
const rows = readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
// two-sided 95% t quantiles by degrees of freedom (1..30)
const T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
const ci = (xs) => {
  const n = xs.length, m = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
  return [m, T[n - 2] * sd / Math.sqrt(n), n];
};
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
for (const config of [...new Set(rows.map((r) => r.config))]) {
  const seeds = [...new Set(rows.filter((r) => r.config === config).map((r) => r.seed))].sort((a, b) => a - b);
  console.log(`\n${config} (Yahoo, 90% offered load, seeds ${seeds.join(",")})`);
  console.log("| policy | p50 | p90 | p99 | p99 / Phoenix p99 (geo. mean, 95% CI) |\n|---|---|---|---|---|");
  const ph = new Map(rows.filter((r) => r.config === config && r.policy === "phoenix").map((r) => [r.seed, r.p99]));
  for (const policy of ["phoenix", "eagle-c", "hawk-c", "sparrow-c"]) {
    const rs = rows.filter((r) => r.config === config && r.policy === policy && ph.has(r.seed));
    const cells = ["p50", "p90", "p99"].map((k) => { const [m, h] = ci(rs.map((r) => r[k])); return `${f(m)} ± ${f(h)}`; });
    const [lm, lh] = ci(rs.map((r) => Math.log(r.p99 / ph.get(r.seed))));
    console.log(`| ${policy} | ${cells.join(" | ")} | ${Math.exp(lm).toFixed(3)} [${Math.exp(lm - lh).toFixed(3)}, ${Math.exp(lm + lh).toFixed(3)}] |`);
  }
}
