// The progress bar draws only on a terminal, and not under CI or on TERM=dumb.
import { afterEach, describe, expect, it } from "vitest";
import { progressAllowed, progressBar } from "../../src/cli/progress.js";

function fakeTty() {
  const written: string[] = [];
  return { stream: { isTTY: true, write: (s: string) => { written.push(s); return true; } } as unknown as NodeJS.WriteStream, written };
}

describe("progress bar", () => {
  const saved = { CI: process.env.CI, TERM: process.env.TERM };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("progressAllowed: off under CI (unless CI=false or 0) and on TERM=dumb", () => {
    expect(progressAllowed({ TERM: "xterm" })).toBe(true);
    expect(progressAllowed({})).toBe(true);
    expect(progressAllowed({ CI: "true", TERM: "xterm" })).toBe(false);
    expect(progressAllowed({ CI: "1" })).toBe(false);
    expect(progressAllowed({ CI: "false" })).toBe(true);
    expect(progressAllowed({ CI: "0" })).toBe(true);
    expect(progressAllowed({ TERM: "dumb" })).toBe(false);
  });

  it("draws on a TTY, stays silent under CI, on TERM=dumb and on a non-TTY stream", () => {
    delete process.env.CI;
    process.env.TERM = "xterm";
    const tty = fakeTty();
    const bar = progressBar("x", tty.stream);
    bar.update(1);
    bar.done();
    expect(tty.written.join("")).toMatch(/x 100%/);

    for (const env of [{ CI: "true", TERM: "xterm" }, { TERM: "dumb" }]) {
      delete process.env.CI;
      Object.assign(process.env, env);
      const t = fakeTty();
      const b = progressBar("x", t.stream);
      b.update(0.5);
      b.update(1);
      b.done();
      expect(t.written, JSON.stringify(env)).toEqual([]);
    }
    delete process.env.CI;
    process.env.TERM = "xterm";
    const pipe = { isTTY: false, write: () => { throw new Error("must not write"); } } as unknown as NodeJS.WriteStream;
    const b = progressBar("x", pipe);
    b.update(1);
    b.done();
  });
});
