#!/usr/bin/env node
// The `fairsched` executable: see program.ts.
import { quietOnClosedPipe } from "./output.js";
import { main } from "./program.js";

quietOnClosedPipe();

process.exitCode = await main(process.argv.slice(2));
