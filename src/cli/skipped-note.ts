// What the CLI says on stderr after a lenient trace load skipped lines.
import type { LoadSummary } from "../traces/index.js";

/** One line for stderr when a lenient load skipped lines (empty when none). */
export function skippedNote(s: LoadSummary): string {
  if (s.skipped === 0) return "";
  const why = Object.entries(s.skippedByReason).map(([k, v]) => `${k}: ${v}`).join(", ");
  return `skipped ${s.skipped} malformed line${s.skipped === 1 ? "" : "s"} (${why}); first: ${s.firstSkipped[0]}\n`;
}
