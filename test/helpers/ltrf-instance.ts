// Random LTRF kernel calls for property tests: small N and K, integer and fractional tasks,
// zero rows, weights sometimes, blocking or not (test/ltrf.kernel, test/ltrf.start-limit).
import fc from "fast-check";

const num = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

export type LtrfInstance = { free: number[]; tasks: number[]; pending: number[]; usage: number[]; weights?: number[]; increments: number[]; blocking: boolean };

export const ltrfInstance = (maxPending = 30): fc.Arbitrary<LtrfInstance> =>
  fc.record({ n: fc.integer({ min: 0, max: 40 }), k: fc.integer({ min: 1, max: 4 }) }).chain(({ n, k }) =>
    fc.record({
      free: fc.array(fc.oneof(fc.constant(0), num(0, 50)), { minLength: k, maxLength: k }),
      tasks: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 }), num(0, 6)), { minLength: n * k, maxLength: n * k }),
      pending: fc.array(fc.integer({ min: 0, max: maxPending }), { minLength: n, maxLength: n }),
      usage: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 }), num(0, 20)), { minLength: n, maxLength: n }),
      weights: fc.option(fc.array(num(0.1, 5), { minLength: n, maxLength: n }), { nil: undefined }),
      increments: fc.array(fc.oneof(fc.constant(0), fc.constant(1), num(0, 3)), { minLength: n, maxLength: n }),
      blocking: fc.boolean(),
    }));
