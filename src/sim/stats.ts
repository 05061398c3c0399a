// Moved to src/des/stats.ts (the discrete-event core); re-exported for existing imports.
export { percentileSorted, mean, summarize, improvement, type Summary } from "../des/stats.js";
