// The human-readable report: one line per axiom, and for a failure the sentence, the shrunk
// case as JSON and how to replay it.
import type { CheckReport } from "./types.js";

export function formatReport(report: CheckReport): string {
  const lines: string[] = [];
  for (const a of report.axioms) {
    if (a.passed) {
      lines.push(`  ok    ${a.axiom} (${a.runs} inputs${a.interrupted ? ", interrupted by the time limit" : ""})`);
      continue;
    }
    lines.push(`  FAIL  ${a.axiom}: ${a.message}`);
    if (a.counterexample) lines.push(`        shrunk case: ${JSON.stringify(a.counterexample)}`);
    lines.push(`        replay: seed ${a.seed}${a.path ? `, path "${a.path}"` : ""}`);
  }
  const head = report.passed
    ? `every axiom held (seed ${report.seed}${report.tasks ? ", task-granular" : ""})`
    : `${report.failed.length} axiom(s) failed: ${report.failed.join(", ")} (seed ${report.seed}${report.tasks ? ", task-granular" : ""})`;
  return [head, ...lines].join("\n");
}
