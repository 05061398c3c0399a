// Shared parameter handling for allocator factories: unknown names are misuse.
import { InputError } from "../../errors.js";

export function readParams(allocator: string, params: Record<string, unknown> | undefined, allowed: readonly string[]): Record<string, unknown> {
  if (params === undefined) return {};
  if (params === null || typeof params !== "object") throw new InputError("params", "expected an object");
  for (const k of Object.keys(params)) {
    if (!allowed.includes(k)) {
      throw new InputError(`params.${k}`, `unknown parameter of allocator '${allocator}' (known: ${allowed.join(", ") || "none"})`);
    }
  }
  return params;
}
