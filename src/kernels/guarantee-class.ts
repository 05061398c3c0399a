// The guarantee classes, one encoding for everything that speaks of them: BoPF's admission and
// its kernels (src/kernels/bopf/, src/bopf/), the policy interface (Policy.guaranteed) and the
// shared dispatch. It sits with the kernels, the lowest layer that uses it. The AssemblyScript
// side keeps the same numbers in assembly/bopf/common.ts (test/kernels/guarantee-class.test.ts
// checks that they agree). Lower is served first: hard before soft.

/** Guaranteed its target, and admitted only if that holds at every instant. */
export const HARD = 0;
/** Guaranteed its target while the hard queues leave room. */
export const SOFT = 1;
/** No guarantee: competes for what the guaranteed queues leave. */
export const ELASTIC = 2;
/** Not admitted. */
export const REJECTED = 3;

/** The class names, indexed by class. */
export const GUARANTEE_CLASS_NAMES = ["hard", "soft", "elastic", "rejected"] as const;
export type GuaranteeClassName = (typeof GUARANTEE_CLASS_NAMES)[number];
