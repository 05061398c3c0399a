// The user documentation: README.md and every Markdown page under docs/ (notes included), and the
// repository paths they name (in `code`, in link targets, or bare in prose).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : []);
}

/** README.md and docs/**\/*.md, as paths relative to the repository root. */
export function docFiles(): string[] {
  return ["README.md", ...markdownUnder(join(ROOT, "docs")).map((f) => relative(ROOT, f))].sort();
}

/** Top-level folders of the repository that prose names as `folder/...`. */
const ROOTS = ["src", "test", "bench", "assembly", "scripts", "examples", "docs"];
const PATH_IN_TEXT = new RegExp(`(?<![\\w./-])((?:${ROOTS.join("|")})/[\\w./-]*[\\w/])`, "g");
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

export interface CitedPath { file: string; line: number; path: string }

/**
 * Every repository path a page names: `src/...`-style paths anywhere in the text (resolved from
 * the root) and relative link targets (resolved from the page's folder). URLs and globs
 * (`test/*\/fuzz.test.ts`) are skipped.
 */
export function citedPaths(file: string): CitedPath[] {
  const out: CitedPath[] = [];
  readFileSync(join(ROOT, file), "utf8").split("\n").forEach((text, i) => {
    for (const m of text.matchAll(PATH_IN_TEXT)) {
      const token = text.slice(m.index!).split(/[\s`)|,;]/)[0];
      if (token.includes("*")) continue; // a glob, not a file
      out.push({ file, line: i + 1, path: m[1].replace(/\/$/, "") });
    }
    for (const m of text.matchAll(LINK)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      out.push({ file, line: i + 1, path: relative(ROOT, join(ROOT, dirname(file), target)) });
    }
  });
  return out;
}

export const pathExists = (p: string) => existsSync(join(ROOT, p));
