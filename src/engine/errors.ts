// Kept for importers of the old path: the errors live in src/errors.ts.
export { InputError, describeValue } from "../errors.js";
