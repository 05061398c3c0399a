// The "node" export condition of fairsched/bullmq: the same API as bullmq/index.js, with Node's
// file system handed to the loader first (the live scheduler loads the engine synchronously).
// bullmq and ioredis are optional peer dependencies: without them this import fails with one line
// saying what to install.
import "../util/provide-node-builtins.js";
import { requirePeers } from "../util/optional-peer.js";
export * from "../bullmq/index.js";

requirePeers("fairsched/bullmq", ["bullmq", "ioredis"]);
