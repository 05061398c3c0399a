// Sweep grids: the cell list (policies x params x seeds), its fingerprint, and shards.
// Pure and deterministic: every machine that expands the same spec gets the same cells in the
// same order, which is what lets shards run anywhere and merge byte-identically.
import { createHash } from "node:crypto";
import { InputError } from "../errors.js";

export type ParamValue = string | number;

export interface SweepSpec {
  scenario: string;
  /** One cell per policy (each cell runs the scenario with that single policy). */
  policies: string[];
  /** Each key takes each of its values; the grid is their cross product. */
  params?: Record<string, ParamValue[]>;
  seeds: number[];
}

export interface SweepCell {
  /** Position in the full (unsharded) grid: the merge order. */
  index: number;
  policy: string;
  params: Record<string, ParamValue>;
  seed: number;
}

export interface Shard {
  /** 1-based, as written on the command line (`--shard 2/3`). */
  index: number;
  count: number;
}

/** The spec with parameter keys sorted: the canonical form that is expanded and fingerprinted. */
export function normalizeSpec(spec: SweepSpec): SweepSpec {
  if (!spec || typeof spec.scenario !== "string" || spec.scenario === "") throw new InputError("sweep.scenario", "must name a scenario");
  const list = <T>(field: string, v: unknown, ok: (x: unknown) => x is T): T[] => {
    if (!Array.isArray(v) || v.length === 0) throw new InputError(field, "must be a non-empty list");
    v.forEach((x, i) => { if (!ok(x)) throw new InputError(`${field}[${i}]`, `invalid value ${JSON.stringify(x)}`); });
    if (new Set(v.map((x) => JSON.stringify(x))).size !== v.length) throw new InputError(field, "lists a value twice (the grid would run a cell twice)");
    return v as T[];
  };
  const isName = (x: unknown): x is string => typeof x === "string" && x !== "";
  const isSeed = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x);
  const isParam = (x: unknown): x is ParamValue => (typeof x === "number" && Number.isFinite(x)) || typeof x === "string";
  const params: Record<string, ParamValue[]> = {};
  for (const key of Object.keys(spec.params ?? {}).sort()) params[key] = list(`sweep.params.${key}`, spec.params![key], isParam);
  return {
    scenario: spec.scenario,
    policies: list("sweep.policies", spec.policies, isName),
    params,
    seeds: list("sweep.seeds", spec.seeds, isSeed),
  };
}

/** sha256 of the canonical spec: shards of different sweeps refuse to merge. */
export function fingerprint(spec: SweepSpec): string {
  return createHash("sha256").update(JSON.stringify(normalizeSpec(spec))).digest("hex").slice(0, 16);
}

/**
 * All cells, in a fixed order: policy (as listed), then parameter combinations (keys sorted,
 * the last key varying fastest), then seed (as listed).
 */
export function expandGrid(spec: SweepSpec): SweepCell[] {
  const s = normalizeSpec(spec);
  const keys = Object.keys(s.params!);
  let combos: Array<Record<string, ParamValue>> = [{}];
  for (const k of keys) combos = combos.flatMap((c) => s.params![k].map((v) => ({ ...c, [k]: v })));
  const cells: SweepCell[] = [];
  for (const policy of s.policies) {
    for (const params of combos) {
      for (const seed of s.seeds) cells.push({ index: cells.length, policy, params, seed });
    }
  }
  return cells;
}

/** Parses `i/n` (1 <= i <= n). */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    const hint = m && index === 0 ? `; shards are numbered from 1: a sweep in ${Math.max(count, 2)} shards is --shard 1/${Math.max(count, 2)} ... --shard ${Math.max(count, 2)}/${Math.max(count, 2)}` : "";
    throw new InputError("--shard", `must be i/n with 1 <= i <= n, e.g. 2/3 for the second of three shards (got '${text}')${hint}`);
  }
  return { index, count };
}

/**
 * The cells of one shard: round-robin by cell index (cell k goes to shard k mod n + 1), so each
 * shard gets a mix of policies and parameters and shards take similar time.
 */
export function shardCells(cells: SweepCell[], shard: Shard | undefined): SweepCell[] {
  if (!shard) return cells;
  return cells.filter((c) => c.index % shard.count === shard.index - 1);
}
