// Claims over seeds with a statistical margin (never one seed): a value is above a bound when
// the 95% Student-t interval of its mean over the seeds lies above the bound and a sign test
// of the per-seed differences gives p < 0.05 (with 10 seeds: at least 9 on the same side).
import { expect } from "vitest";
import { meanCi95, signTest } from "../../src/stats/confidence.js";

/** "mean ± half [min, max] (n+/m-)" of xs against `bound`, for failure messages and docs. */
export function describeOverSeeds(xs: readonly number[], bound = 0): string {
  const c = meanCi95(xs);
  const s = signTest(xs.map((x) => x - bound));
  return `${c.mean.toFixed(3)} ± ${c.half?.toFixed(3)} [${Math.min(...xs).toFixed(3)}, ${Math.max(...xs).toFixed(3)}] over ${xs.length} seeds (${s.positive} above / ${s.negative} below ${bound}, sign p ${s.p.toPrecision(2)})`;
}

/** The per-seed values are above `bound`: 95% interval above it and sign test p < 0.05. */
export function expectAboveOverSeeds(xs: readonly number[], bound: number, what: string): void {
  const msg = `${what}: ${describeOverSeeds(xs, bound)}`;
  const c = meanCi95(xs);
  const s = signTest(xs.map((x) => x - bound));
  expect(c.lo as number, msg).toBeGreaterThan(bound);
  expect(s.positive, msg).toBeGreaterThan(s.negative);
  expect(s.p, msg).toBeLessThan(0.05);
}

/** The per-seed values are below `bound`: 95% interval below it and sign test p < 0.05. */
export function expectBelowOverSeeds(xs: readonly number[], bound: number, what: string): void {
  expectAboveOverSeeds(xs.map((x) => -x), -bound, `${what} (negated)`);
}

/**
 * A claim that does not hold, kept as its measured number: the mean and the 95% half-width over
 * the seeds, to 3 decimals, equal the measured ones, so a change in either direction (or a crash)
 * fails. Returns the interval for the assertion that says why it is a miss.
 */
export function expectMeasuredOverSeeds(xs: readonly number[], measured: { mean: number; half: number }, what: string): ReturnType<typeof meanCi95> {
  const c = meanCi95(xs);
  const msg = `${what}: ${describeOverSeeds(xs)}; measured ${measured.mean} ± ${measured.half}`;
  expect(round3(c.mean), msg).toBe(measured.mean);
  expect(round3(c.half as number), msg).toBe(measured.half);
  return c;
}

/** x to 3 decimals, as the docs print it (toFixed's rounding; -0 read as 0). */
export const round3 = (x: number): number => +x.toFixed(3) + 0;
