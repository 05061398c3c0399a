// Text from files (trace job ids, user and queue names, file names) shown on a terminal: a
// raw ESC, CSI (U+009B) or BEL lets a file move the cursor, clear the screen or retitle the
// window, and bidi overrides (U+202E) make text read backwards. This low module has no imports,
// so loaders, reports and the CLI can all use it.

/**
 * C0 controls, DEL, C1 controls, and the invisible format characters that reorder or hide
 * text: Arabic letter mark, zero-width space/joiners and direction marks, line/paragraph
 * separators, bidi embeddings/overrides/isolates, word joiner and invisible operators, BOM;
 * and lone surrogates (not text at all).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const UNSAFE_TEST = new RegExp(UNSAFE.source, "u");

/**
 * `name` with every unsafe character written as a visible escape: `\xNN` up to U+00FF,
 * `\uNNNN` above ("a\x1b[2J" becomes the 8 characters `a\x1b[2J`). Other text (letters of any
 * script, emoji, spaces) is kept. Idempotent: the output has nothing left to escape. Not
 * injective (a name that already contains the characters `\x1b` prints like one with ESC), so
 * code that keys data by names must check collisions itself (the trace loaders do).
 */
export function sanitizeForTerminal(name: string): string {
  return String(name).replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** Does `name` contain a character sanitizeForTerminal would escape? */
export function hasTerminalControls(name: string): boolean {
  return UNSAFE_TEST.test(String(name));
}
