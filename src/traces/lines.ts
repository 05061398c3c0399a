// Streaming line reader for trace files. Traces are large (a full Google 2011 part is
// hundreds of MB unpacked), so lines are read one at a time from a file stream, gunzipped on
// the fly when the name ends in .gz; the file is never held in memory as a whole.
//
// Every input-driven cost is bounded: only regular files are read (a FIFO or a device such as
// /dev/zero never ends; the kind is checked on the opened descriptor, opened non-blocking so a
// FIFO cannot block the open), and a line is at most `maxLineBytes` bytes (1 MiB by default),
// so one endless line (or a gzip bomb of one letter) stops with an InputError naming file:line
// once the bound is passed, instead of growing a string until V8 throws inside a stream handler.
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import { InputError } from "../errors.js";
import { sanitizeForTerminal } from "../util/terminal.js";
import { checkOption } from "./issues.js";
import { nonRegularKind } from "../util/file-kind.js";

/** The default bound on one line's bytes (without its terminator). */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
/** The largest bound a caller may set: a line becomes one JS string, whose length V8 caps near 2^29. */
export const MAX_LINE_BYTES_LIMIT = 256 * 1024 * 1024;

export interface LineReadOptions {
  /** Longest line in bytes, without its terminator (whole number in [1, 2^28]); default 1 MiB. */
  maxLineBytes?: number;
}

const LF = 0x0a, CR = 0x0d;

/**
 * Calls `onLine(text, lineNo)` for every line of `file` (1-based line numbers, without the line
 * terminator). Lines end at LF, CRLF or a lone CR (as node:readline splits them; a CRLF split
 * across two reads is one terminator); a last line without terminator counts when it is not
 * empty. Bytes are decoded as UTF-8. A file that is not a regular file, a line longer than
 * maxLineBytes, and I/O or gzip errors are InputErrors naming the file (and the line).
 */
export async function forEachLine(file: string, onLine: (line: string, lineNo: number) => void, opts: LineReadOptions = {}): Promise<number> {
  const max = checkOption("maxLineBytes", opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, 1, MAX_LINE_BYTES_LIMIT, true);
  const shown = sanitizeForTerminal(file);
  const fh = await openRegular(file, shown);
  let lineNo = 0;
  let input: Readable | null = null;
  let raw: Readable | null = null;
  try {
    raw = fh.createReadStream({ autoClose: false });
    input = raw;
    if (file.endsWith(".gz")) {
      const gunzip = createGunzip();
      const source = raw;
      // pipe() does not forward errors; a truncated or corrupt .gz must still stop the read.
      source.on("error", (e) => gunzip.destroy(e));
      input = source.pipe(gunzip);
    }
    // the current line's bytes when it spans reads
    let parts: Buffer[] = [];
    let partBytes = 0;
    // the previous read ended with CR: a LF starting this one belongs to it
    let skipLf = false;
    const emit = (text: string) => {
      lineNo++;
      onLine(text, lineNo);
    };
    const tooLong = () => new InputError(`${shown}:${lineNo + 1}`, `line is longer than ${max} bytes (options.maxLineBytes); not a trace of lines, or raise the bound`);
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let pos = 0;
      if (skipLf && chunk.length > 0) {
        if (chunk[0] === LF) pos = 1;
        skipLf = false;
      }
      let nextLf = chunk.indexOf(LF, pos), nextCr = chunk.indexOf(CR, pos);
      while (pos < chunk.length) {
        if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
        if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
        const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
        if (end === -1) {
          if (partBytes + chunk.length - pos > max) throw tooLong();
          parts.push(chunk.subarray(pos));
          partBytes += chunk.length - pos;
          break;
        }
        if (partBytes + end - pos > max) throw tooLong();
        if (partBytes === 0) emit(chunk.toString("utf8", pos, end));
        else {
          parts.push(chunk.subarray(pos, end));
          emit(Buffer.concat(parts, partBytes + end - pos).toString("utf8"));
          parts = [];
          partBytes = 0;
        }
        pos = end + 1;
        if (chunk[end] === CR) {
          if (pos === chunk.length) skipLf = true;
          else if (chunk[pos] === LF) pos++;
        }
      }
    }
    if (partBytes > 0) emit(Buffer.concat(parts, partBytes).toString("utf8"));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw ioError(shown, lineNo, e as Error);
  } finally {
    input?.destroy();
    raw?.destroy();
    await fh.close().catch(() => undefined);
  }
  return lineNo;
}

/** Opens `file` for reading if it is a regular file; anything else is an InputError saying what it is. */
async function openRegular(file: string, shown: string): Promise<FileHandle> {
  if (typeof file !== "string" || file === "") throw new InputError("file", "must be the path of a trace file");
  let fh: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever
    fh = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw ioError(shown, 0, e as Error);
  }
  try {
    const st = await fh.stat();
    const kind = nonRegularKind(st);
    if (kind !== null) throw new InputError(shown, `is ${kind}, expected a regular trace file (a stream or device may never end)`);
    return fh;
  } catch (e) {
    await fh.close().catch(() => undefined);
    if (e instanceof InputError) throw e;
    throw ioError(shown, 0, e as Error);
  }
}

function ioError(file: string, lineNo: number, e: Error): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new InputError(file, "no such file");
  if (code === "EISDIR") return new InputError(file, "is a directory, expected a trace file");
  const msg = sanitizeForTerminal(e.message);
  if (code?.startsWith("Z_") || /incorrect header|unexpected end|invalid/i.test(e.message)) {
    return new InputError(`${file}:${lineNo + 1}`, `cannot gunzip (${msg}); the file is truncated or not gzip data`);
  }
  return new InputError(file, `cannot read (${msg})`);
}
