// Kernel status codes. Kernels never throw (the stub runtime has no exceptions worth
// catching): they return one of these and write the offending element index to the
// error slot; the TypeScript wrapper turns it into an InputError naming field and index.
// The same list as src/kernels/status.ts (test/kernels.status.test.ts pins them equal).
export const OK: i32 = 0;
export const E_CAPACITY: i32 = 1; // capacity[k] not finite or <= 0
export const E_DEMAND: i32 = 2; // demands[i*K+k] not finite or < 0
export const E_WEIGHT: i32 = 3; // weights[i] not finite or <= 0
export const E_OFFSET: i32 = 4; // offsets[i] not finite or < 0
export const E_SHARE_OVERFLOW: i32 = 5; // demand/capacity/weight ratio overflows f64 for queue i
export const E_AVAILABLE: i32 = 6; // available[k] (SRPT) not finite or < 0
export const E_RATE: i32 = 7; // rates[i*K+k] (SRPT burst rate cap) not finite or < 0
export const E_VOLUME: i32 = 8; // remaining[i*K+k] (SRPT remaining burst volume) not finite or < 0
export const E_PENDING: i32 = 9; // pending[i] (LTRF task count) not a whole number in [0, 2^53]
export const E_USAGE: i32 = 10; // usage[i] (LTRF accumulated usage) not finite or < 0
export const E_INCREMENT: i32 = 11; // increments[i] (LTRF usage per task) not finite or < 0
export const E_CRV_OFFSET: i32 = 12; // queueOffsets[j] (CRV reorder) not 0 at j=0, decreasing, or past the task count
export const E_CRV_SCORE: i32 = 13; // crv[i] (CRV reorder score) not finite or < 0
export const E_CRV_RUNTIME: i32 = 14; // runtime[i] (CRV reorder estimated runtime) not finite or < 0
export const E_CRV_SLACK: i32 = 15; // slack[i] < 0, or slackThreshold < 0 (index -1)
export const E_CRV_MODE: i32 = 16; // mode[j] (CRV reorder queue mode) not 0, 1 or 2
export const E_START_LIMIT: i32 = 17; // LTRF: a start beyond maxStarts was due (index: its queue); outputs hold the prefix
export const E_MAX_STARTS: i32 = 18; // LTRF: maxStarts not a whole number >= 0 or +Infinity
// BoPF (assembly/bopf.ts); numbered from 32 so codes added for other kernels stay below
export const E_BOPF_KIND: i32 = 32; // kind[i] (BoPF admission) not 0 (TQ) or 1 (LQ)
export const E_BOPF_START: i32 = 33; // start[i] not finite
export const E_BOPF_PERIOD: i32 = 34; // period[i] not finite or <= 0
export const E_BOPF_WINDOW: i32 = 35; // window[i] not finite or <= 0
export const E_BOPF_COUNT: i32 = 36; // count[i] not a whole number >= 0
export const E_BOPF_VOLUME: i32 = 37; // volume[i*K+k] not finite or < 0
export const E_BOPF_CLASS: i32 = 38; // cls[i] (BoPF allocation) not a class code 0-3
export const BOPF_GENERAL: i32 = -1; // not an error: the round needs the general (TS) path
