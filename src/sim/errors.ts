// Kept for importers of the old path: the errors live in src/errors.ts.
export { SimulationError } from "../errors.js";
