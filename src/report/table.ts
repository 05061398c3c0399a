// Plain-text tables for the CLI and README: formats the Table values scenarios and sweeps build
// (src/scenarios/table.ts).
import { InputError, describeValue } from "../errors.js";
import type { Table } from "../scenarios/table.js";

export type { Table } from "../scenarios/table.js";

export function formatCell(v: string | number | null): string {
  if (v === null) return "-";
  if (typeof v === "string") return v;
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (a >= 100) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

export function formatTable(t: Table): string {
  if (t === null || typeof t !== "object" || !Array.isArray(t.rows) || !Array.isArray(t.columns)) {
    throw new InputError("table", `expected {title, columns, rows}, got ${describeValue(t)}`);
  }
  const cells = t.rows.map((r) => r.map(formatCell));
  // a loop, not Math.max(...column): spreading ~125k rows overflows the call stack
  const widths = t.columns.map((c, i) => {
    let w = c.length;
    for (const r of cells) w = Math.max(w, (r[i] ?? "").length);
    return w;
  });
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const out = [t.title, line(t.columns), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const r of cells) out.push(line(r));
  for (const n of t.notes ?? []) out.push(n);
  return out.join("\n");
}
