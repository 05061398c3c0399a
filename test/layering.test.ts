// The layering of src/: the table of README.md's "Layout and layering" section (the one table;
// docs/notes/layering.md points to it) read here and checked on every import of every
// src/**/*.ts. An import is static, `export ... from`, side-effect, type-only, an `import("...")`
// type, a dynamic `import()` or a `new URL("...", import.meta.url)` worker entry; a template path
// (`./worker.${ext}`) stands for every file of its folder it matches; any other computed path
// fails unless it loads a user's own module (USER_MODULE_LOADERS). A file may import only from
// its own layer or a lower one, and the file-level import graph has no cycle.
// bench/ imports no test code.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SRC = join(ROOT, "src");

/** Files whose computed `import(x)` loads a module the user names, never a file of src/. */
const USER_MODULE_LOADERS: Record<string, string> = {
  "src/sweep/worker.ts": "a sweep's `modules` option: the user's plugin modules, imported before the cells run",
  "src/cli/fuzz-worker.ts": "`fairsched fuzz --allocator FILE.mjs`: the user's allocator module",
  "src/sweep/queue.ts": "`fairsched worker --module`: the operator's plugin modules, imported so jobs are checked against the registry they complete",
};

/** The layer table of README.md's "Layout and layering" section: folder (no slash) or file -> layer. */
function readmeLayers(readme: string): Record<string, number> {
  const at = readme.indexOf("## Layout and layering");
  if (at < 0) throw new Error("README.md has no \"## Layout and layering\" section");
  const section = readme.slice(at, readme.indexOf("\n## ", at + 1) >>> 0 || undefined);
  const layers: Record<string, number> = {};
  let tables = 0;
  let inTable = false;
  for (const line of section.split("\n")) {
    const row = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
    if (!row) {
      inTable = false;
      continue;
    }
    if (!inTable) tables++;
    inTable = true;
    for (const m of row[2].matchAll(/`([^`]+)`/g)) {
      const name = m[1].replace(/\/$/, "");
      if (name in layers) throw new Error(`README layer table: ${name} is in layers ${layers[name]} and ${row[1]}`);
      layers[name] = Number(row[1]);
    }
  }
  if (tables !== 1) throw new Error(`README "Layout and layering" has ${tables} layer tables, expected one`);
  return layers;
}

const LAYERS = readmeLayers(readFileSync(join(ROOT, "README.md"), "utf8"));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return /\.(ts|mts|mjs|js)$/.test(p) ? [p] : [];
  });
}

/** The file an import specifier names (".js" written, ".ts" on disk), or null for packages. */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

/** The files a template path can name: its folder's files whose name fits (each `${...}` any run). */
function resolveTemplate(from: string, head: string, tails: readonly string[]): string[] {
  const at = resolve(dirname(from), head);
  const dir = head.endsWith("/") ? at : dirname(at);
  const prefix = head.endsWith("/") ? "" : basename(at);
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^${escape(prefix)}${tails.map((t) => `.*${escape(t)}`).join("")}$`);
  if (!existsSync(dir)) return [at];
  // a name written with ".js" stands for the ".ts" file on disk
  return readdirSync(dir).filter((n) => re.test(n) || re.test(n.replace(/\.ts$/, ".js"))).map((n) => join(dir, n));
}

interface Imports {
  /** Import specifiers (relative or package) and resolved template paths. */
  specs: string[];
  files: string[];
  /** Computed `import(x)` paths, as written, with their line. */
  computed: string[];
}

/** Every module a source text names: import/export declarations, import types, import() and worker URLs. */
function importsOf(file: string, text: string): Imports {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Imports = { specs: [], files: [], computed: [] };
  const path = (arg: ts.Expression | undefined, node: ts.Node) => {
    if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) out.specs.push(arg.text);
    else if (arg && ts.isTemplateExpression(arg) && arg.head.text.startsWith(".")) {
      out.files.push(...resolveTemplate(file, arg.head.text, arg.templateSpans.map((s) => s.literal.text)));
    } else {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      out.computed.push(`${arg ? arg.getText(sf) : "(nothing)"} (line ${line})`);
    }
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.specs.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      path(node.moduleReference.expression, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.specs.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      path(node.arguments[0], node);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL" && node.arguments?.length === 2
      && node.arguments[1].getText(sf) === "import.meta.url") {
      const arg = node.arguments[0];
      // a worker entry or an asset next to the module: only paths that stay in src/ are imports
      if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) {
        const f = resolveImport(file, arg.text);
        if (f && f.startsWith(SRC + sep) && f.endsWith(".ts")) out.files.push(f);
      } else path(arg, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

type Graph = Map<string, string[]>;

function importGraph(dir: string): { graph: Graph; computed: Map<string, string[]> } {
  const graph: Graph = new Map();
  const computed = new Map<string, string[]>();
  for (const file of tsFiles(dir)) {
    const found = importsOf(file, readFileSync(file, "utf8"));
    const deps = found.specs.map((s) => resolveImport(file, s)).filter((p): p is string => p !== null);
    graph.set(file, [...new Set([...deps, ...found.files])]);
    if (found.computed.length) computed.set(file, found.computed);
  }
  return { graph, computed };
}

/** Top-level folder of src/ (or the file's own name when directly in src/); null outside src/. */
function topOf(file: string, src: string): string | null {
  const rel = relative(src, file);
  if (rel.startsWith("..") || rel === "") return null;
  return rel.split(sep)[0];
}

/** Imports that go up a layer, leave src/, or touch a folder with no layer. */
function layerViolations(g: Graph, src: string, layers: Record<string, number>): string[] {
  const out: string[] = [];
  const name = (p: string) => relative(src, p).split(sep).join("/");
  for (const [file, deps] of g) {
    const from = topOf(file, src)!;
    const lf = layers[from];
    if (lf === undefined) {
      out.push(`src/${name(file)}: src/${from} has no layer (add it to the layer table of README.md)`);
      continue;
    }
    for (const dep of deps) {
      const to = topOf(dep, src);
      if (to === null) {
        out.push(`src/${name(file)} imports ${relative(dirname(src), dep)}, outside src/`);
        continue;
      }
      const lt = layers[to];
      if (lt === undefined) out.push(`src/${name(file)} imports src/${name(dep)}: src/${to} has no layer`);
      else if (lt > lf) out.push(`src/${name(file)} (${from}, layer ${lf}) imports src/${name(dep)} (${to}, layer ${lt})`);
    }
  }
  return out;
}

/** Every import cycle (strongly connected component of more than one file, or a self-import). */
function importCycles(g: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    // Iterative Tarjan: a frame is (node, position in its edge list).
    const frames: Array<[string, number]> = [[v, 0]];
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const [u, i] = frame;
      const deps = (g.get(u) ?? []).filter((d) => g.has(d));
      if (i < deps.length) {
        frame[1]++;
        const w = deps[i];
        if (!index.has(w)) {
          index.set(w, next); low.set(w, next); next++;
          stack.push(w); onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(u, Math.min(low.get(u)!, index.get(w)!));
        }
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(u)!));
      }
      if (low.get(u) === index.get(u)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== u);
        if (scc.length > 1 || (g.get(u) ?? []).includes(u)) cycles.push(scc.sort());
      }
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("the checker itself", () => {
  const src = resolve("/x/src");
  const f = (p: string) => join(src, p);
  it("finds an import from a lower layer to a higher one, an import out of src/, and a folder with no layer", () => {
    const g: Graph = new Map([
      [f("scenarios/a.ts"), [f("report/table.ts"), f("sim/model.ts")]],
      [f("report/table.ts"), [f("scenarios/table.ts")]],
      [f("scenarios/table.ts"), []],
      [f("sim/model.ts"), [resolve("/x/shared/traces/t.ts")]],
      [f("nowhere/z.ts"), []],
    ]);
    const v = layerViolations(g, src, LAYERS);
    expect(v).toHaveLength(3);
    expect(v[0]).toBe(`src/scenarios/a.ts (scenarios, layer ${LAYERS.scenarios}) imports src/report/table.ts (report, layer ${LAYERS.report})`);
    expect(v[1]).toMatch(/outside src\//);
    expect(v[2]).toMatch(/src\/nowhere has no layer/);
  });
  it("finds cycles of two files, of three, and a self-import; none in a chain", () => {
    const g: Graph = new Map([
      [f("engine/a.ts"), [f("engine/b.ts")]],
      [f("engine/b.ts"), [f("engine/a.ts"), f("engine/c.ts")]],
      [f("engine/c.ts"), [f("engine/d.ts")]],
      [f("engine/d.ts"), [f("engine/e.ts")]],
      [f("engine/e.ts"), [f("engine/c.ts")]],
      [f("engine/s.ts"), [f("engine/s.ts")]],
      [f("engine/x.ts"), [f("engine/y.ts")]],
      [f("engine/y.ts"), []],
    ]);
    const c = importCycles(g).map((scc) => scc.map((p) => relative(src, p).split(sep).join("/")));
    expect(c).toHaveLength(3);
    expect(c).toContainEqual(["engine/a.ts", "engine/b.ts"]);
    expect(c).toContainEqual(["engine/c.ts", "engine/d.ts", "engine/e.ts"]);
    expect(c).toContainEqual(["engine/s.ts"]);
  });
  it("reads every kind of import: declarations, types, dynamic, template paths, worker URLs; reports computed paths", () => {
    const file = join(SRC, "sweep", "probe.ts");
    const found = importsOf(file, [
      `import { a } from "./a.js"; import type { B } from "../policy/model.js"; import "./side.js";`,
      `export { c } from "./c.js"; export * from "pkg";`,
      `type Fs = typeof import("node:fs");`,
      `const m = await import("./lazy.js");`,
      `const w = await import(\`./work\${"er"}.js\`);`,
      `const u = new URL("./grid.js", import.meta.url);`,
      `const x = await import(name);`,
    ].join("\n"));
    expect(found.specs).toEqual(["./a.js", "../policy/model.js", "./side.js", "./c.js", "pkg", "node:fs", "./lazy.js"]);
    expect(found.files.map((p) => relative(SRC, p).split(sep).join("/"))).toEqual(["sweep/worker.ts", "sweep/grid.ts"]);
    expect(found.computed).toEqual(["name (line 7)"]);
  });
  it("reads the one layer table of a README section, and refuses a second table or a folder in two layers", () => {
    const table = (rows: string) => `## Layout and layering\n\n| layer | folders | what |\n|---|---|---|\n${rows}\n\n## Next\n| 9 | \`later/\` | x |\n`;
    expect(readmeLayers(table("| 0 | `errors.ts`, `util/` | low |\n| 1 | `des/` | core |"))).toEqual({ "errors.ts": 0, util: 0, des: 1 });
    expect(() => readmeLayers(table("| 0 | `util/` | low |\n\n| 1 | `des/` | core |"))).toThrow(/2 layer tables/);
    expect(() => readmeLayers(table("| 0 | `util/` | low |\n| 1 | `util/` | again |"))).toThrow(/util is in layers 0 and 1/);
  });
});

describe("src/ layering (README.md's table)", () => {
  const { graph: g, computed } = importGraph(SRC);
  const name = (p: string) => `src/${relative(SRC, p).split(sep).join("/")}`;

  it("reads every file and the imports of each", () => {
    expect(g.size).toBeGreaterThan(50);
    expect(g.get(join(SRC, "cli", "program.ts"))!.map(name)).toContain("src/cli/progress.ts");
    // the sweep's worker entry, named by a template path
    expect(g.get(join(SRC, "sweep", "run.ts"))!.map(name)).toContain("src/sweep/worker.ts");
  });

  it("puts every folder and file of src/ in exactly one layer, and names nothing src/ lacks", () => {
    const entries = readdirSync(SRC).filter((n) => n.endsWith(".ts") || statSync(join(SRC, n)).isDirectory()).sort();
    expect(entries.filter((n) => !(n in LAYERS))).toEqual([]);
    expect(Object.keys(LAYERS).filter((n) => !entries.includes(n))).toEqual([]);
  });

  it("no import from a lower layer to a higher one (nor out of src/)", () => {
    expect(layerViolations(g, SRC, LAYERS)).toEqual([]);
  });

  it("no import cycle", () => {
    expect(importCycles(g).map((scc) => scc.map(name).join(" <-> "))).toEqual([]);
  });

  it("no computed import path except where a user's own module is loaded", () => {
    const unexplained = [...computed].filter(([f]) => !(name(f) in USER_MODULE_LOADERS)).map(([f, c]) => `${name(f)}: import(${c.join(", ")})`);
    expect(unexplained).toEqual([]);
    for (const f of Object.keys(USER_MODULE_LOADERS)) expect(computed.has(join(ROOT, f)), f).toBe(true);
  });

  it("the package entry reaches no `node:` module (it loads in browsers; Node's modules are reached lazily)", () => {
    const seen = new Set<string>();
    const todo = [join(SRC, "index.ts")];
    const found: string[] = [];
    while (todo.length) {
      const f = todo.pop()!;
      if (seen.has(f) || !g.has(f)) continue;
      seen.add(f);
      // value imports and re-exports only: `import type` is erased
      for (const m of readFileSync(f, "utf8").matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\bfrom\s*)?["'](node:[^"']+)["']/gm)) found.push(`${name(f)} -> ${m[1]}`);
      todo.push(...g.get(f)!);
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });
});

describe("bench/", () => {
  it("imports no test code", () => {
    const { graph } = importGraph(join(ROOT, "bench"));
    expect(graph.size).toBeGreaterThan(10);
    const test = join(ROOT, "test") + sep;
    const bad = [...graph].flatMap(([f, deps]) => deps.filter((d) => d.startsWith(test)).map((d) => `${relative(ROOT, f)} -> ${relative(ROOT, d)}`));
    expect(bad).toEqual([]);
  });
});
