// Streaming line reader for trace files. Traces are large (a full Google 2011 part is
// hundreds of MB unpacked), so lines are read one at a time from an fs stream, gunzipped on the
// fly when the name ends in .gz; the file is never held in memory as a whole.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import { InputError } from "../engine/errors.js";

/**
 * Calls `onLine(text, lineNo)` for every line of `file` (1-based line numbers, without the line
 * terminator; a trailing "\r" is removed so CRLF files parse like LF files). I/O and gzip errors
 * become InputError naming the file and the last line read.
 */
export async function forEachLine(file: string, onLine: (line: string, lineNo: number) => void): Promise<number> {
  const raw = createReadStream(file);
  let input: Readable = raw;
  let lineNo = 0;
  let failure: Error | null = null;
  const fail = (e: Error) => {
    failure ??= e;
    rl.close();
  };
  if (file.endsWith(".gz")) {
    const gunzip = createGunzip();
    // pipe() does not forward errors; a truncated or corrupt .gz must still stop the read.
    raw.on("error", (e) => gunzip.destroy(e));
    input = raw.pipe(gunzip);
  }
  const rl = createInterface({ input, crlfDelay: Infinity });
  input.on("error", fail);
  try {
    for await (const line of rl) {
      lineNo++;
      onLine(line.endsWith("\r") ? line.slice(0, -1) : line, lineNo);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    failure ??= e as Error;
  } finally {
    rl.close();
    if (input !== raw) input.destroy();
    raw.destroy();
  }
  if (failure) throw ioError(file, lineNo, failure);
  return lineNo;
}

function ioError(file: string, lineNo: number, e: Error): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new InputError(file, "no such file");
  if (code === "EISDIR") return new InputError(file, "is a directory, expected a trace file");
  if (code?.startsWith("Z_") || /incorrect header|unexpected end|invalid/i.test(e.message)) {
    return new InputError(`${file}:${lineNo + 1}`, `cannot gunzip (${e.message}); the file is truncated or not gzip data`);
  }
  return new InputError(file, `cannot read (${e.message})`);
}
