import { loadEngineSync, type Engine } from "../../src/index.js";

/** Both backends, so every test runs on each. */
export const backends: ReadonlyArray<readonly [string, () => Engine]> = [
  ["wasm", () => loadEngineSync({ backend: "wasm" })],
  ["js", () => loadEngineSync({ backend: "js" })],
];

/** 1e-9 relative tolerance (docs/policies/model.md), with an absolute floor for values near zero. */
export function close(a: number, b: number, rel = 1e-9): boolean {
  return Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
}
