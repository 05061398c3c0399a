// The kernel status codes exist twice, once per language: assembly/util/status.ts (what the
// kernels return) and src/kernels/status.ts (what the TS side maps to InputErrors). This
// pins them to one list: the same names (CamelCase <-> E_SNAKE_CASE) with the same values.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Status } from "../../src/kernels/status.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** `export const E_CAPACITY: i32 = 1;` -> CAPACITY: 1 (OK and BOPF_GENERAL keep their names). */
function assemblyCodes(): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of read("assembly/util/status.ts").matchAll(/^export const (\w+): i32 = (-?\d+);/gm)) {
    out.set(m[1].replace(/^E_/, ""), Number(m[2]));
  }
  return out;
}

/** `  ShareOverflow = 5,` -> SHARE_OVERFLOW: 5. */
function typescriptCodes(): Map<string, number> {
  const body = /export const enum Status \{([^}]*)\}/.exec(read("src/kernels/status.ts"))![1];
  const out = new Map<string, number>();
  for (const m of body.matchAll(/^\s*(\w+) = (-?\d+),/gm)) {
    out.set(m[1].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase(), Number(m[2]));
  }
  return out;
}

describe("kernel status codes", () => {
  it("assembly/util/status.ts and src/kernels/status.ts list the same codes with the same values", () => {
    const asm = assemblyCodes(), ts = typescriptCodes();
    expect(asm.size).toBeGreaterThan(20);
    expect(Object.fromEntries(ts)).toEqual(Object.fromEntries(asm));
  });

  it("the parsed TS list is the enum the code uses", () => {
    const ts = typescriptCodes();
    expect(ts.get("OK")).toBe(Status.OK);
    expect(ts.get("SHARE_OVERFLOW")).toBe(Status.ShareOverflow);
    expect(ts.get("BOPF_GENERAL")).toBe(Status.BopfGeneral);
    expect(ts.get("MAX_STARTS")).toBe(Status.MaxStarts);
  });
});
