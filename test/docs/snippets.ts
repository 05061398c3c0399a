// The runnable examples of the docs: fenced code blocks whose info string is `js example`,
// `sh example` or `python example` (docs/README.md, "Examples that run").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./doc-files.js";

export type SnippetLanguage = "js" | "sh" | "python";
export interface Snippet { file: string; line: number; language: SnippetLanguage; code: string }

const FENCE = /^```(\w+)\s+example\s*$/;

export function snippetsIn(file: string): Snippet[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]);
    if (!m) continue;
    if (m[1] !== "js" && m[1] !== "sh" && m[1] !== "python") throw new Error(`${file}:${i + 1}: an example must be js, sh or python, got ${m[1]}`);
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed example block`);
    out.push({ file, line: i + 1, language: m[1], code: lines.slice(i + 1, end).join("\n") + "\n" });
    i = end;
  }
  return out;
}
