// The human-readable report: one line per axiom, and for a failure the sentence, the shrunk
// case as JSON and how to replay it; and the safe descriptions of what an allocator or policy
// under test threw or returned, which must never throw themselves (a Proxy, a throwing getter).
import type { CheckReport } from "./types.js";

/** Longest description of a thrown or returned value. */
const MAX_DESCRIPTION = 200;

const clip = (s: string) => (s.length > MAX_DESCRIPTION ? s.slice(0, MAX_DESCRIPTION) + "..." : s);

/**
 * What a value is, for a finding: numbers as written, BigInts with their `n`, strings quoted,
 * objects as JSON when that works; never throws (a Proxy whose traps throw, a throwing getter or
 * toJSON are described by their kind).
 */
export function describeReturned(v: unknown): string {
  try {
    if (v === undefined) return "undefined";
    if (typeof v === "number") return String(v);
    if (typeof v === "bigint") return `the BigInt ${v}n`;
    if (typeof v === "string") return JSON.stringify(clip(v));
    if (typeof v === "symbol" || typeof v === "function") return `a ${typeof v}`;
    if (v === null) return "null";
    try {
      const s = JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
      if (s !== undefined) return clip(s);
    } catch {
      // a getter, toJSON or Proxy trap threw: say what kind of thing it is
    }
    return Array.isArray(v) ? "an array that cannot be read (a getter or Proxy threw)" : "an object that cannot be read (a getter or Proxy threw)";
  } catch {
    return "a value that cannot be read (a Proxy threw)";
  }
}

/** What was thrown, for a finding: an Error's message (with its name unless plain Error) when it can be read, else describeReturned; never throws. */
export function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) {
      let name = "Error", message = "";
      try { name = typeof e.name === "string" ? e.name : "Error"; } catch { name = "Error"; }
      try {
        message = typeof e.message === "string" ? e.message : describeReturned(e.message);
      } catch {
        return `${clip(name)} whose message cannot be read (its getter threw)`;
      }
      return name === "Error" ? clip(message) : `${clip(name)}: ${clip(message)}`;
    }
  } catch {
    return "a value that cannot be read (a Proxy threw)";
  }
  return describeReturned(e);
}

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
