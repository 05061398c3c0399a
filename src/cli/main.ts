#!/usr/bin/env node
// Placeholder until the simulator lands: prints the DRF worked example.
import { loadEngineSync } from "../index.js";
const e = loadEngineSync();
const r = e.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
console.log(`A: ${r.allocation[0]} tasks, B: ${r.allocation[2] / 3} tasks`);
