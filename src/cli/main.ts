#!/usr/bin/env node
// The `fairsched` executable: see program.ts.
import "../util/provide-node-builtins.js"; // Node's fs for the loader (Node 20.0+, no getBuiltinModule)
import { quietOnClosedPipe } from "./output.js";
import { main } from "./program.js";

quietOnClosedPipe();

process.exitCode = await main(process.argv.slice(2));
