// Pollaczek-Khinchin mean waiting time of an M/G/1 queue (the Phoenix paper's Eq. 1, docs/policies/phoenix.md):
//   E[W] = rho / (1 - rho) * E[S^2] / (2 E[S]),   rho = lambda * E[S]
// and +Infinity when rho >= 1 (the queue grows without bound).
//
// Worked examples: lambda = 0.5/s, E[S] = 1 s.
//  - exponential service (E[S^2] = 2 E[S]^2 = 2): rho = 0.5, E[W] = 1 * 2 / 2 = 1 s, the
//    M/M/1 value rho / (mu - lambda) = 0.5 / 0.5.
//  - deterministic service (E[S^2] = 1): E[W] = 1 * 1 / 2 = 0.5 s, the M/D/1 value.
import { InputError, describeValue } from "../errors.js";

export interface PkInput {
  /** lambda: arrivals per second, >= 0. */
  arrivalRate: number;
  /** E[S]: mean service time in seconds, > 0. */
  meanService: number;
  /** E[S^2]: second moment of the service time, >= E[S]^2 (Jensen). */
  secondMomentService: number;
}

export function pkWaitTime(input: PkInput): number {
  if (input === null || typeof input !== "object") throw new InputError("input", `expected an object, got ${describeValue(input)}`);
  const { arrivalRate: lambda, meanService: es, secondMomentService: es2 } = input;
  if (typeof lambda !== "number" || !Number.isFinite(lambda) || lambda < 0) {
    throw new InputError("arrivalRate", `must be a finite number >= 0 (got ${describeValue(lambda)})`);
  }
  if (typeof es !== "number" || !Number.isFinite(es) || es <= 0) {
    throw new InputError("meanService", `must be a finite number > 0 (got ${describeValue(es)})`);
  }
  if (typeof es2 !== "number" || !Number.isFinite(es2) || es2 < 0) {
    throw new InputError("secondMomentService", `must be a finite number >= 0 (got ${describeValue(es2)})`);
  }
  // E[S^2] >= E[S]^2 always holds for a real distribution; allow float rounding
  if (es2 < es * es * (1 - 1e-12)) {
    throw new InputError("secondMomentService", `must be >= meanService^2 = ${es * es} (got ${es2}); no distribution has a smaller second moment`);
  }
  return pkWait(lambda, es, es2);
}

/** Unchecked core, for the monitor's hot loop (inputs come from its own statistics). */
export function pkWait(lambda: number, es: number, es2: number): number {
  const rho = lambda * es;
  if (rho >= 1) return Infinity;
  if (lambda === 0 || es2 === 0) return 0;
  const w = (rho / (1 - rho)) * (es2 / (2 * es));
  // (a subnormal rho has lost relative precision: 1e-300 x 2.47e-24 rounds to 5e-324, 2x off)
  if (w > 0 && w < Infinity && rho >= 2.2250738585072014e-308) return w;
  // es2 / (2 es) overflows for a tiny E[S] with a huge E[S^2] (1e-10 and 1e300: Infinity where
  // the wait is 5e299), and rho underflows (to 0 or a subnormal) for a tiny lambda: the same value as
  // lambda E[S^2] / (2 (1 - rho)), which overflows only when the wait itself does
  const a = lambda * es2;
  return (a < Infinity ? a * 0.5 : (lambda * 0.5) * es2) / (1 - rho);
}
