// sanitizeForTerminal (issue 21, finding 16): names read from files are shown escaped, so a
// trace cannot move the cursor, retitle the window or reverse text on the user's terminal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasTerminalControls, sanitizeForTerminal } from "../../src/util/terminal.js";
import { FUZZ } from "../helpers/hostile.js";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

describe("sanitizeForTerminal", () => {
  it("escapes C0, DEL, C1 and bidi / invisible format characters; leaves other text alone", () => {
    expect(sanitizeForTerminal("plain name/é 名")).toBe("plain name/é 名");
    expect(sanitizeForTerminal("a\x1b[2Jb")).toBe("a\\x1b[2Jb");
    expect(sanitizeForTerminal("\x07\x00\x7f\u009b\t\n\r")).toBe("\\x07\\x00\\x7f\\x9b\\x09\\x0a\\x0d");
    expect(sanitizeForTerminal("x\u202eevil\u2066\u200b\ufeff")).toBe("x\\u202eevil\\u2066\\u200b\\ufeff");
    // a lone surrogate (not text) is escaped too
    expect(sanitizeForTerminal("a\ud800b")).toBe("a\\ud800b");
    expect(hasTerminalControls("ok")).toBe(false);
    expect(hasTerminalControls("\x1b")).toBe(true);
  });

  it("property: the output has no control characters, is idempotent, and keeps clean strings as they are", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const t = sanitizeForTerminal(s);
        expect(CONTROL.test(t)).toBe(false);
        expect(hasTerminalControls(t)).toBe(false);
        expect(sanitizeForTerminal(t)).toBe(t);
        if (!hasTerminalControls(s)) expect(t).toBe(s);
      }),
      FUZZ,
    );
  });
});
