// Every benchmark module, in report order. A new kernel gets its own bench/<kernel>.ts
// exporting a BenchModule, listed here.
import type { BenchModule } from "./cases.js";
import { drfModule } from "./drf.js";

export const registry: BenchModule[] = [drfModule];
