// The sweep's JSON-lines format and the merge of shards. One JSON object per line:
//   {"type":"sweep","version":1,"fingerprint":"…","spec":{…},"cells":N,"shard":"i/n"}   header
//   {"type":"cell","fingerprint":"…","cell":{"index":k,"policy":…,"params":{…},"seed":s},"report":{…}}
// Merge takes lines from any number of shards/machines, in any order, and sorts cells by index,
// so what is printed from it does not depend on sharding, worker count or timing.
import { readFileSync } from "node:fs";
import { InputError } from "../errors.js";
import type { ScenarioReport } from "../scenarios/scenario.js";
import type { SweepCell, SweepSpec } from "./grid.js";

export interface SweepHeader {
  type: "sweep";
  version: 1;
  fingerprint: string;
  spec: SweepSpec;
  cells: number;
  shard: string;
}

export interface SweepLine {
  type: "cell";
  fingerprint: string;
  cell: SweepCell;
  report: ScenarioReport;
}

export interface MergedSweep {
  header: SweepHeader;
  /** Cell lines parsed, sorted by cell index, one per cell. */
  cells: SweepLine[];
  /** Indices of the grid's cells that no input had (empty unless allowPartial). */
  missing: number[];
}

/**
 * Merges JSON lines from shards (any order, any grouping into files). Each input is the text of a
 * file or its lines; `names` label the inputs in error messages. Throws InputError on mixed
 * sweeps, conflicting duplicates, bad lines, or missing cells (unless allowPartial).
 */
export function mergeSweepLines(inputs: Array<string | string[]>, opts: { names?: string[]; allowPartial?: boolean } = {}): MergedSweep {
  let header: SweepHeader | null = null;
  const cells = new Map<number, { text: string; line: SweepLine }>();
  inputs.forEach((input, f) => {
    const name = opts.names?.[f] ?? `input ${f + 1}`;
    const lines = typeof input === "string" ? input.split("\n") : input;
    lines.forEach((text, i) => {
      if (text.trim() === "") return;
      const where = `${name}:${i + 1}`;
      let obj: SweepHeader | SweepLine;
      try {
        obj = JSON.parse(text);
      } catch (e) {
        throw new InputError(where, `not JSON (${(e as Error).message})`);
      }
      if (obj?.type === "sweep") {
        if (header && header.fingerprint !== obj.fingerprint) {
          throw new InputError(where, `belongs to another sweep (fingerprint ${obj.fingerprint}, expected ${header.fingerprint}): shards of different grids cannot merge`);
        }
        header ??= obj;
        return;
      }
      if (obj?.type !== "cell" || typeof obj.cell?.index !== "number" || typeof obj.report !== "object") {
        throw new InputError(where, "expected a sweep header or cell line");
      }
      if (header && obj.fingerprint !== header.fingerprint) throw new InputError(where, `cell of another sweep (fingerprint ${obj.fingerprint})`);
      const prev = cells.get(obj.cell.index);
      if (prev && prev.text !== text) throw new InputError(where, `cell ${obj.cell.index} appears twice with different results (a run is not deterministic, or the shards ran different code)`);
      cells.set(obj.cell.index, { text, line: obj });
    });
  });
  if (!header) throw new InputError(opts.names?.join(", ") ?? "merge", "no sweep header line: not sweep output");
  const h: SweepHeader = header;
  for (const { line } of cells.values()) {
    if (line.fingerprint !== h.fingerprint) throw new InputError("merge", `cell ${line.cell.index} belongs to another sweep`);
    if (line.cell.index >= h.cells) throw new InputError("merge", `cell index ${line.cell.index} is outside the grid of ${h.cells} cells`);
  }
  const missing: number[] = [];
  for (let i = 0; i < h.cells; i++) if (!cells.has(i)) missing.push(i);
  if (missing.length && !opts.allowPartial) {
    throw new InputError("merge", `${missing.length} of ${h.cells} cells missing (first: ${missing.slice(0, 10).join(", ")}): merge every shard's output`);
  }
  return { header: h, cells: [...cells.keys()].sort((a, b) => a - b).map((k) => cells.get(k)!.line), missing };
}

/** Reads JSON-lines files and merges them (see mergeSweepLines). */
export function mergeSweepFiles(files: string[], opts: { allowPartial?: boolean } = {}): MergedSweep {
  const texts = files.map((f) => {
    try {
      return readFileSync(f, "utf8");
    } catch (e) {
      throw new InputError(f, `cannot read (${(e as Error).message})`);
    }
  });
  return mergeSweepLines(texts, { names: files, allowPartial: opts.allowPartial });
}

