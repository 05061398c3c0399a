// Every benchmark module, in report order. A new kernel gets its own bench/<kernel>.ts
// exporting a BenchModule (swept over N x K) and is listed in `registry`; a fixed-size
// scenario exports a ScenarioModule listed in `scenarios` (measured after the sweep).
import type { BenchModule, ScenarioModule } from "./cases.js";
import { drfModule } from "./drf.js";
import { srptModule } from "./srpt.js";
import { ltrfModule } from "./ltrf.js";
import { crvModule } from "./crv.js";
import { bopfModule } from "./bopf.js";
import { simModule } from "./sim.js";

export const registry: BenchModule[] = [drfModule, srptModule, ltrfModule, crvModule];

export const scenarios: ScenarioModule[] = [bopfModule, simModule];
