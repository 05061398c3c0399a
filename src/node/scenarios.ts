// The "node" export condition of fairsched/scenarios: the same API as scenarios/index.js, with Node's
// file system handed to the loader first (works on Node 20.0+, Deno, Bun; no process.getBuiltinModule).
import "../util/provide-node-builtins.js";
export * from "../scenarios/index.js";
