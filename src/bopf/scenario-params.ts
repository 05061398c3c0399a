// Parsing list-valued scenario parameters (`--param tqs=1,2,4`).
import { InputError } from "../errors.js";

export function listParam(params: Record<string, string | number> | undefined, name: string, fallback: number[]): number[] {
  const v = params?.[name];
  if (v === undefined) return fallback;
  const xs = String(v).split(",").map((s) => Number(s.trim()));
  xs.forEach((x, i) => {
    if (!Number.isFinite(x)) throw new InputError(`--param ${name}[${i}]`, `must be a number, got '${String(v).split(",")[i]}'`);
  });
  return xs;
}
