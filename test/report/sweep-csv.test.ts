// The sweep's CSV export read back with an RFC 4180 parser: one row per cell without its seed and
// per table row, each metric's mean, lo and hi (the 95% t-interval over the seeds) as numbers.
import { describe, expect, it } from "vitest";
import { csvField, sweepCsv } from "../../src/report/sweep-csv.js";
import { aggregateSweep } from "../../src/sweep/aggregate.js";
import { handMergedSweep } from "../fixtures/sweep-merged.js";

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields may hold commas, quotes ("") and line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"' && field === "") { quoted = true; i++; continue; }
    if (c === ",") { row.push(field); field = ""; i++; continue; }
    if (c === "\r" && text[i + 1] === "\n") { row.push(field); rows.push(row); row = []; field = ""; i += 2; continue; }
    if (c === "\r" || c === "\n") throw new Error(`bare line end at ${i}`);
    field += c; i++;
  }
  if (field !== "" || row.length) throw new Error("no CRLF after the last record");
  return rows;
}

describe("sweepCsv", () => {
  const m = handMergedSweep();
  const [header, ...rows] = parseCsv(sweepCsv(m));
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`no column ${name}`);
    return i;
  };

  it("has the table, the cell's keys, the seeds, then mean/lo/hi per metric of every table", () => {
    expect(header).toEqual([
      "table", "policy", "tqs", "queue", "seeds",
      "LQ avg s mean", "LQ avg s lo", "LQ avg s hi", "LQ x vs drf mean", "LQ x vs drf lo", "LQ x vs drf hi",
      "TQs mean", "TQs lo", "TQs hi", "LQ met mean", "LQ met lo", "LQ met hi", "share mean", "share lo", "share hi",
    ]);
    for (const r of rows) expect(r).toHaveLength(header.length);
    expect(rows).toHaveLength(4 + 8);
  });

  it("reads back to the aggregates, in full precision; quoted titles survive", () => {
    const [times, shares] = aggregateSweep(m);
    const timeRows = rows.filter((r) => r[0] === times.name);
    expect(timeRows).toHaveLength(4);
    expect(rows.filter((r) => r[0] === 'hand sweep: Shares, "per queue"')).toHaveLength(8);
    timeRows.forEach((r, k) => {
      const agg = times.rows[k];
      expect([r[col("policy")], Number(r[col("tqs")]), Number(r[col("seeds")])]).toEqual([agg.policy, agg.params[0], 3]);
      times.metricColumns.forEach((c, j) => {
        const s = agg.stats[j]!;
        expect(Number(r[col(`${c} mean`)])).toBe(s.mean);
        expect(r[col(`${c} lo`)]).toBe(String(s.lo));
        expect(r[col(`${c} hi`)]).toBe(String(s.hi));
      });
      expect(r[col("queue")]).toBe("");
      expect(r[col("share mean")]).toBe("");
    });
    // bopf at tqs 1: LQ x vs drf over seeds = 1, 2, 3 -> 2 ± 4.303 / sqrt(3)
    const bopf = timeRows[2];
    expect(Number(bopf[col("LQ x vs drf mean")])).toBeCloseTo(2, 12);
    expect(Number(bopf[col("LQ x vs drf hi")]) - 2).toBeCloseTo(4.303 / Math.sqrt(3), 9);
    expect(shares.rows.map((r) => r.labels[0])).toEqual(rows.slice(4).map((r) => r[col("queue")]));
  });

  it("one seed: lo and hi are empty", () => {
    const one = handMergedSweep();
    one.header.spec.seeds = [1];
    one.cells = one.cells.filter((c) => c.cell.seed === 1);
    const [h, first] = parseCsv(sweepCsv(one));
    expect(first[h.indexOf("LQ avg s mean")]).toBe("10");
    expect(first[h.indexOf("LQ avg s lo")]).toBe("");
    expect(first[h.indexOf("seeds")]).toBe("1");
  });

  it("csvField quotes commas, quotes and line ends; non-finite numbers are empty", () => {
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("x\ny")).toBe('"x\ny"');
    expect(csvField(NaN)).toBe("");
    expect(csvField(0.1)).toBe("0.1");
  });
});
