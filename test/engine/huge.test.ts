// Problems whose inputs fit in 4 GiB but whose inputs plus kernel scratch do not: the engine
// must say so (InputError naming the field) instead of wrapping a 32-bit size and running the
// kernel out of bounds. Flat number[]s claim N entries without allocating them (a Proxy).
import { describe, expect, it } from "vitest";
import { InputError, loadEngineSync } from "../../src/index.js";

const wasm = loadEngineSync({ backend: "wasm" });
const claiming = (n: number): number[] =>
  new Proxy([] as number[], { get: (t, p) => (p === "length" ? n : typeof p === "string" && /^\d+$/.test(p) ? 1 : Reflect.get(t, p)) });

describe("too large for memory once scratch is counted", () => {
  // K = 1: DRF's own arrays are ~48 bytes a queue (3.2 GB at 6.7e7), its scratch ~70 more:
  // the scratch sum passes 2^32 and would wrap to a size that seemed to fit
  it("DRF, N = 6.7e7, K = 1 -> InputError, engine still fine", () => {
    const huge = claiming(67_000_000);
    expect(() => wasm.drf({ capacity: [1], demands: huge })).toThrow(InputError);
    expect(() => wasm.drf({ capacity: [1], demands: huge })).toThrow(/^demands: problem too large for memory/);
    expect(Array.from(wasm.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation)).toEqual([3, 12, 6, 2]);
  });

  // SRPT's arrays ~40 bytes a queue at K = 1 (3.2 GB at 8e7), scratch ~56: the same wrap
  it("SRPT, N = 8e7, K = 1 -> InputError, engine still fine", () => {
    const huge = claiming(80_000_000);
    const input = { capacity: [1], available: [1], demands: huge, rates: huge, remaining: huge };
    expect(() => wasm.srpt(input)).toThrow(InputError);
    expect(() => wasm.srpt(input)).toThrow(/problem too large for memory/);
    expect(Array.from(wasm.srpt({ capacity: [10], available: [4], demands: [[4]], rates: [[2]], remaining: [[3]] }).allocation)).toEqual([2]);
  });
});
