// Moved to src/des/simulation-error.ts (the discrete-event core); re-exported for existing imports.
export { SimulationError } from "../des/simulation-error.js";
