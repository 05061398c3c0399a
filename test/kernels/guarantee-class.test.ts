// The guarantee classes have one TS definition (src/kernels/guarantee-class.ts) and one
// AssemblyScript definition (assembly/bopf/common.ts, which the WASM kernels compile in): the
// same numbers, read here from the AssemblyScript source.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ELASTIC, GUARANTEE_CLASS_NAMES, HARD, REJECTED, SOFT } from "../../src/kernels/guarantee-class.js";

const ASSEMBLY = readFileSync(new URL("../../assembly/bopf/common.ts", import.meta.url), "utf8");

/** `NAME: u8 = N` of the AssemblyScript source, every one. */
function assemblyConstants(source: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of source.matchAll(/\b(HARD|SOFT|ELASTIC|REJECTED)\s*:\s*u8\s*=\s*(\d+)/g)) {
    out.set(m[1], [...(out.get(m[1]) ?? []), Number(m[2])]);
  }
  return out;
}

describe("guarantee classes", () => {
  it("the AssemblyScript kernels define each class once, with the TS number", () => {
    expect(Object.fromEntries(assemblyConstants(ASSEMBLY))).toEqual({ HARD: [HARD], SOFT: [SOFT], ELASTIC: [ELASTIC], REJECTED: [REJECTED] });
  });

  it("no other AssemblyScript file defines them again", () => {
    const root = fileURLToPath(new URL("../../assembly/", import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts") && f !== join("bopf", "common.ts"));
    expect(files.length).toBeGreaterThan(5);
    const again = files.filter((f) => assemblyConstants(readFileSync(join(root, f), "utf8")).size > 0);
    expect(again).toEqual([]);
  });

  it("the names follow the numbers, hard served first", () => {
    expect(GUARANTEE_CLASS_NAMES[HARD]).toBe("hard");
    expect(GUARANTEE_CLASS_NAMES[SOFT]).toBe("soft");
    expect(GUARANTEE_CLASS_NAMES[ELASTIC]).toBe("elastic");
    expect(GUARANTEE_CLASS_NAMES[REJECTED]).toBe("rejected");
    expect(HARD).toBeLessThan(SOFT);
  });

  it("reads a definition it is shown (the parser is not blind)", () => {
    expect(Object.fromEntries(assemblyConstants("export const HARD: u8 = 7, SOFT: u8 = 1;"))).toEqual({ HARD: [7], SOFT: [1] });
  });
});
