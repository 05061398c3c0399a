// The policy interface sits below every driver (simulator, live scheduler): src/policy/ and
// src/des/ import nothing from the simulator, the models or anything above them.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const importsOf = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".ts")).flatMap((f) =>
  [...readFileSync(join(dir, f), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => ({ file: `${dir}/${f}`, spec: m[1] })));

describe("layering of the policy interface and the event core", () => {
  it("src/policy/ imports only the engine's types, the errors module (the lowest layer) and itself", () => {
    const bad = importsOf("src/policy").filter((i) => !(i.spec.startsWith("./") || i.spec.startsWith("../engine/") || i.spec === "../errors.js"));
    expect(bad).toEqual([]);
  });

  it("src/des/ imports only itself, the heap and the errors module", () => {
    const bad = importsOf("src/des").filter((i) => !(i.spec.startsWith("./") || i.spec === "../errors.js" || i.spec === "../collections/heap.js"));
    expect(bad).toEqual([]);
  });
});
