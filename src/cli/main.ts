#!/usr/bin/env node
// The `fairsched` executable: see program.ts.
import { main } from "./program.js";

process.exitCode = main(process.argv.slice(2));
