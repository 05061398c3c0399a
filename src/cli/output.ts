// What the CLI writes: data (tables, JSON) to stdout, status and errors to stderr, every line
// sanitised for the terminal (names from trace files may hold escape sequences), and a closed
// pipe (`fairsched simulate --json | head -c 100`) ends the process quietly.
import { statSync } from "node:fs";
import { InputError } from "../errors.js";
import { sanitizeForTerminal } from "../util/terminal.js";
import { nonRegularKind } from "../util/file-kind.js";

/** Text with every line sanitised (newlines kept). */
export function terminalText(text: string): string {
  return text.split("\n").map(sanitizeForTerminal).join("\n");
}

/**
 * JSON text safe on a terminal and still the same JSON: JSON.stringify already escapes C0 controls
 * inside strings, but leaves DEL, C1 controls (U+009B is a CSI) and bidi/invisible format
 * characters raw; those become \u escapes. Outside strings JSON has only whitespace.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n";
}

/** Data: stdout. */
export const writeData = (text: string): void => { process.stdout.write(terminalText(text)); };
/** Status lines: stderr. */
export const writeStatus = (text: string): void => { process.stderr.write(terminalText(text)); };

/** A write to a closed pipe ends the process with status 0 and no message, as `cat` and `ls` do. */
export function quietOnClosedPipe(): void {
  for (const s of [process.stdout, process.stderr]) {
    s.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(0);
      throw e;
    });
  }
}

/**
 * The trace file named on the command line exists and is a regular file; otherwise an InputError
 * saying what it is (missing, a directory, a FIFO, a device), before any format guessing.
 */
export function checkTraceFile(file: string, field = "--trace"): void {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(field, code === "ENOENT" ? `no such file: ${file}` : `cannot read ${file}: ${code ?? (e as Error).message}`);
  }
  const kind = nonRegularKind(st);
  if (kind !== null) throw new InputError(field, `${file} is ${kind}, expected a regular trace file`);
}
