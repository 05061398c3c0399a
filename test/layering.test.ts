// The layering of src/, checked on every import of every src/**/*.ts (static, `export ... from`,
// side-effect and dynamic imports with a literal path; type-only imports count too, since the
// shipped .d.ts files follow them). Each top-level folder of src/ has a layer; a file may import
// only from its own layer or a lower one, and the file-level import graph has no cycle.
// The table is the project's layering (docs/notes/layering.md), lowest first:
//   errors < kernels < engine < des < policies and models < workloads and trace loaders
//   < scenarios < sweep < report < testkit < CLI < the package entry (src/index.ts)
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Layer of each top-level folder of src/ (or file directly in src/); lower imports nothing higher. */
const LAYERS: Record<string, number> = {
  // one errors module every layer uses (a folder or a file)
  errors: 0, "errors.ts": 0, util: 0, // low utilities (terminal sanitising)
  collections: 0, random: 0, stats: 0, // heaps, the seeded RNG, summary statistics
  kernels: 1, // one folder per kernel contract: src/kernels/<name>/
  engine: 2,
  des: 3, // the discrete-event core
  dispatch: 3, // the shared dispatch (guaranteed targets, then online DRF) every driver runs
  policy: 3, // the policy interface and workload model every driver (simulator, live scheduler) runs
  // policies and models: the queue-level model and policy interface (sim), the policies, the
  // papers' models; a folder may import another of its layer as long as no file cycle forms
  sim: 4, policies: 4, live: 4, bopf: 4, ltrf: 4, justice: 4, phoenix: 4, baselines: 4,
  // users of the simulator core that make its inputs: workload generators and trace loaders
  traces: 4, // the trace loaders (the Eagle loader's job type is the Phoenix model's input)
  workloads: 5,
  bullmq: 5, // the BullMQ host integration: drives the live scheduler from tenant queues in Redis
  scenarios: 6,
  sweep: 7, // running grids of scenario cells (local threads; later a queue backend)
  report: 8, // formatting: text tables, HTML
  testkit: 9,
  cli: 10,
  "index.ts": 11, // the package entry
  node: 11, // the "node" export condition: the entries with Node's fs handed to the loader
};

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

/** The src/ file an import specifier names (".js" written, ".ts" on disk), or null for packages. */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => c.endsWith(".ts") && existsSync(c)) ?? base;
}

/** Top-level folder of src/ (or the file's own name when directly in src/); null outside src/. */
function topOf(file: string, src: string): string | null {
  const rel = relative(src, file);
  if (rel.startsWith("..") || rel === "") return null;
  return rel.split(sep)[0];
}

type Graph = Map<string, string[]>;

function importGraph(src: string): Graph {
  const g: Graph = new Map();
  for (const file of tsFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    g.set(file, importedFiles.map((f) => resolveImport(file, f.fileName)).filter((p): p is string => p !== null));
  }
  return g;
}

/** Imports that go up a layer, leave src/, or touch a folder with no layer. */
function layerViolations(g: Graph, src: string, layers: Record<string, number>): string[] {
  const out: string[] = [];
  const name = (p: string) => relative(src, p).split(sep).join("/");
  for (const [file, deps] of g) {
    const from = topOf(file, src)!;
    const lf = layers[from];
    if (lf === undefined) {
      out.push(`src/${name(file)}: src/${from} has no layer (add it to LAYERS in test/layering.test.ts)`);
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
    expect(v[0]).toMatch(/^src\/scenarios\/a\.ts \(scenarios, layer 6\) imports src\/report\/table\.ts \(report, layer 8\)$/);
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
});

describe("src/ layering", () => {
  const g = importGraph(SRC);
  const name = (p: string) => `src/${relative(SRC, p).split(sep).join("/")}`;

  it("reads every file and the imports of each", () => {
    expect(g.size).toBeGreaterThan(50);
    expect(g.get(join(SRC, "cli", "program.ts"))!.map(name)).toContain("src/cli/progress.ts");
  });

  it("no import from a lower layer to a higher one (nor out of src/)", () => {
    expect(layerViolations(g, SRC, LAYERS)).toEqual([]);
  });

  it("no import cycle", () => {
    expect(importCycles(g).map((scc) => scc.map(name).join(" <-> "))).toEqual([]);
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
