// Moved to src/des/random.ts (the discrete-event core); re-exported for existing imports.
export { Rng } from "../des/random.js";
