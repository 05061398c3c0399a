// Sizes of src/: no file over FILE_LINES lines and no function over FUNCTION_LINES lines (a
// function's lines run from its first token to its closing brace, nested functions included),
// measured with the TypeScript parser on every src/**/*.ts. Exempt, and only these: the kernels'
// TS twins, which follow their AssemblyScript kernels (assembly/) statement for statement so
// the two can be read side by side, and the files in TEMPORARY.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FILE_LINES = 500;
const FUNCTION_LINES = 120;
const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Twins of AssemblyScript kernels: the twin of each kernel contract, and DRF's level path (assembly/drf/levels.ts). */
const TWIN = /^kernels\/[^/]+\/twin\.ts$|^kernels\/drf\/levels\.ts$/;
/** Being split now (issue 27): remove each line when its file is within the limits. */
const TEMPORARY = new Set<string>([]);

const exempt = (rel: string) => TWIN.test(rel) || TEMPORARY.has(rel);

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

interface Measured {
  lines: number;
  /** "name (line N)" and its length, for every function with a body. */
  functions: Array<{ name: string; lines: number }>;
}

/** A file's line count and the length of each function, method, accessor, constructor and arrow with a body. */
function measure(file: string, text: string): Measured {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const functions: Measured["functions"] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = lineOf(node.getStart(sf));
      const parent = node.parent;
      const name = node.name?.getText(sf)
        ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.name.getText(sf) : "(anonymous)");
      functions.push({ name: `${name} (line ${start + 1})`, lines: lineOf(node.end) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  return { lines, functions };
}

describe("the measure itself", () => {
  it("counts a file's lines and each function's, nested ones apart and inside their parent", () => {
    const text = [
      "export function outer(a: number): number {", // 1
      "  const inner = (b: number) => {",            // 2
      "    return b + 1;",                           // 3
      "  };",                                        // 4
      "  return inner(a);",                          // 5
      "}",                                           // 6
      "class C {",                                   // 7
      "  m(): void {}",                              // 8
      "  get g(): number { return 1; }",             // 9
      "}",                                           // 10
      "declare function bodiless(): void;",          // 11
    ].join("\n") + "\n";
    const m = measure("x.ts", text);
    expect(m.lines).toBe(11);
    expect(m.functions).toEqual([
      { name: "outer (line 1)", lines: 6 },
      { name: "inner (line 2)", lines: 3 },
      { name: "m (line 8)", lines: 1 },
      { name: "g (line 9)", lines: 1 },
    ]);
  });
});

describe("src/ sizes", () => {
  const files = tsFiles(SRC).map((f) => ({ rel: relative(SRC, f).split(sep).join("/"), ...measure(f, readFileSync(f, "utf8")) }));

  it("reads every file, and the exemptions name files that exist", () => {
    expect(files.length).toBeGreaterThan(200);
    const names = new Set(files.map((f) => f.rel));
    for (const t of TEMPORARY) expect(names.has(t), t).toBe(true);
    expect(files.filter((f) => TWIN.test(f.rel)).length).toBeGreaterThanOrEqual(5);
  });

  it(`no file over ${FILE_LINES} lines`, () => {
    const over = files.filter((f) => !exempt(f.rel) && f.lines > FILE_LINES).map((f) => `src/${f.rel}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });

  it(`no function over ${FUNCTION_LINES} lines`, () => {
    const over = files.filter((f) => !exempt(f.rel)).flatMap((f) =>
      f.functions.filter((fn) => fn.lines > FUNCTION_LINES).map((fn) => `src/${f.rel}: ${fn.name}, ${fn.lines} lines`));
    expect(over).toEqual([]);
  });
});
