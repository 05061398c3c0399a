// The "node" export condition of fairsched/bullmq: the same API as bullmq/index.js, with Node's
// file system handed to the loader first (the live scheduler loads the engine synchronously).
import "../util/provide-node-builtins.js";
export * from "../bullmq/index.js";
