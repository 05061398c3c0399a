// Stages so far, over every engine and backend: copyResults compares it before and after
// reading a caller's `into` (whose getters are user code) to catch a getter that ran another
// engine call, which would have overwritten the staged results being copied out.
export const stageCount = { n: 0 };
