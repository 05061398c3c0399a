#!/usr/bin/env node
// The `fairsched` executable: see program.ts.
import { main } from "./program.js";

process.exitCode = await main(process.argv.slice(2));
