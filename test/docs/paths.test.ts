// Every repository path README.md and docs/ name exists (a renamed or deleted file fails here),
// except outputs the repository ignores (generated: docs/api/, test/.artifacts/), which a page may
// name as long as it says how they are made.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, citedPaths, docFiles, pathExists } from "./doc-files.js";

const ignoredPath = (path: string) => {
  try {
    execFileSync("git", ["check-ignore", "-q", "--no-index", path], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
};
// a folder pattern (test/.artifacts/) matches the path only when written as a folder
const ignoredByGit = (path: string) => ignoredPath(path) || ignoredPath(`${path}/`);

describe("paths named in the docs", () => {
  it("the scan sees the pages and the paths they cite", () => {
    const files = docFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("docs/notes/bopf.md");
    // a known citation is found, with its line
    expect(citedPaths("README.md")).toContainEqual(expect.objectContaining({ path: "docs/engine.md" }));
  });

  it("every cited path exists", () => {
    const dead = docFiles()
      .flatMap(citedPaths)
      .filter((c) => !pathExists(c.path) && !ignoredByGit(c.path))
      .map((c) => `${c.file}:${c.line}: ${c.path}`);
    expect(dead).toEqual([]);
  });

  it("a generated path is named beside the command or test that makes it", () => {
    for (const file of docFiles()) {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      for (const c of citedPaths(file).filter((c) => !pathExists(c.path) && ignoredByGit(c.path))) {
        const near = lines.slice(Math.max(0, c.line - 2), c.line + 1).join(" ");
        expect(near, `${file}:${c.line}: ${c.path}`).toMatch(/npm run [\w:-]+|generated|written by|land in/);
      }
    }
  });
});

describe("docs/README.md", () => {
  it("links every page under docs/", () => {
    const linked = new Set(citedPaths("docs/README.md").map((c) => c.path));
    const pages = docFiles().filter((f) => f.startsWith("docs/") && f !== "docs/README.md");
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});
