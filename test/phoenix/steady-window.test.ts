// The Google steady-arrival window's helpers (src/phoenix/steady-window.ts): worked examples and
// bad input. The window's numbers on the full trace: steady-window.repro.test.ts.
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/index.js";
import { arrivalCv, arrivalWindow } from "../../src/phoenix/steady-window.js";

describe("arrivalWindow and arrivalCv", () => {
  it("arrivalWindow and arrivalCv: worked examples and bad input", () => {
    const js = [0, 1, 2, 3].map((arrival) => ({ arrival }));
    expect(arrivalWindow(js, 1, 3).map((j) => j.arrival)).toEqual([1, 2]);
    expect(arrivalCv(js, 2)).toBe(0);
    expect(arrivalCv([0, 0, 0, 3, 4].map((arrival) => ({ arrival })), 2)).toBeCloseTo(0.5, 12); // bins [3, 1]
    expect(() => arrivalWindow(js, -1, 3)).toThrow(InputError);
    expect(() => arrivalWindow(js, 2, 2)).toThrow(/to/);
    expect(() => arrivalCv(js, 0)).toThrow(/bin/);
  });
});
