// Summarizes bench/phoenix/reproduce.mjs output (JSON lines on stdin), per setting and config:
// each policy's mean short-job p50/p90/p99 over the seeds with a 95% t interval, and Phoenix's
// p50/p90/p99 relative to each other policy on the same seed (geometric mean of the per-seed
// ratio Phoenix / other, 95% t interval on the log ratios: below 1 = Phoenix faster, the
// paper's Fig. 7 / Fig. 10 normalization). Intervals: src/stats/confidence.ts (meanCi95).
// Usage: node bench/phoenix/summarize.mjs < runs.jsonl (needs npm run build).
import { readFileSync } from "node:fs";
import { meanCi95 } from "../../dist/stats/confidence.js";

// one row per (setting, seed, policy, config): runs are deterministic, so a repeat is a duplicate
const seen = new Set();
const rows = readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((r) => {
  const key = `${r.setting}|${r.seed}|${r.policy}|${r.config}`;
  return seen.has(key) ? false : (seen.add(key), true);
});
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
const cell = (xs) => {
  const c = meanCi95(xs);
  return c.half === null ? f(c.mean) : `${f(c.mean)} ± ${f(c.half)}`;
};
const ratio = (xs) => {
  const c = meanCi95(xs.map(Math.log));
  return c.half === null ? Math.exp(c.mean).toFixed(3) : `${Math.exp(c.mean).toFixed(3)} [${Math.exp(c.lo).toFixed(3)}, ${Math.exp(c.hi).toFixed(3)}]`;
};
const uniq = (xs) => [...new Set(xs)];

for (const setting of uniq(rows.map((r) => r.setting))) {
  const inSetting = rows.filter((r) => r.setting === setting);
  // Phoenix under the defaults is the reference every config of this setting is compared with
  const ref = new Map(inSetting.filter((r) => r.policy === "phoenix" && r.config === "default").map((r) => [r.seed, r]));
  for (const config of uniq(inSetting.map((r) => r.config))) {
    const rs = inSetting.filter((r) => r.config === config);
    const seeds = uniq(rs.map((r) => r.seed)).sort((a, b) => a - b);
    const u = rs.filter((r) => r.policy === "eagle-c" || r.policy === rs[0].policy);
    console.log(`\n${setting}, ${config} (seeds ${seeds[0]}-${seeds.at(-1)}, n = ${seeds.length}; workers ${uniq(rs.map((r) => r.workers)).join("/")}; ` +
      `busy while jobs arrive ${cell(u.map((r) => r.arrivalUtilization))}, at short arrivals ${cell(u.map((r) => r.busyAtShort))})`);
    console.log("| policy | p50 (s) | p90 (s) | p99 (s) | default Phoenix / this: p50 | p90 | p99 | relaxations (sum) |\n|---|---|---|---|---|---|---|---|");
    for (const policy of uniq(rs.map((r) => r.policy))) {
      const ps = rs.filter((r) => r.policy === policy && ref.has(r.seed));
      const cells = ["p50", "p90", "p99"].map((k) => cell(ps.map((r) => r[k])));
      const rat = ["p50", "p90", "p99"].map((k) => ratio(ps.map((r) => ref.get(r.seed)[k] / r[k])));
      const relax = ps.reduce((a, r) => a + r.relaxations.unsatisfiable + r.relaxations.congested + r.relaxations.negotiated, 0);
      const neg = ps.reduce((a, r) => a + r.relaxations.negotiated, 0);
      console.log(`| ${policy} | ${cells.join(" | ")} | ${rat.join(" | ")} | ${relax} (negotiated ${neg}) |`);
    }
  }
}
