// Kernel status codes. Kernels never throw (the stub runtime has no exceptions worth
// catching): they return one of these and write the offending element index to the
// error slot; the TypeScript wrapper turns it into an InputError naming field and index.
// Keep in sync with src/kernels/status.ts.
export const OK: i32 = 0;
export const E_CAPACITY: i32 = 1; // capacity[k] not finite or <= 0
export const E_DEMAND: i32 = 2; // demands[i*K+k] not finite or < 0
export const E_WEIGHT: i32 = 3; // weights[i] not finite or <= 0
export const E_OFFSET: i32 = 4; // offsets[i] not finite or < 0
export const E_SHARE_OVERFLOW: i32 = 5; // demand/capacity/weight ratio overflows f64 for queue i
