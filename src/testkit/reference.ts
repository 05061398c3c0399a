// The reference allocator: the engine's weighted DRF (progressive filling), as an Allocator.
import type { Engine } from "../engine/engine.js";
import { loadEngineSync } from "../engine/load.js";
import type { Allocator } from "./types.js";

/** engine.drf as an allocator (default engine: WASM). Offsets are passed when the state has them. */
export function referenceDrf(engine: Engine = loadEngineSync()): Allocator {
  return (s) => {
    const r = engine.drf({ capacity: s.capacity, demands: s.demands, weights: s.weights, offsets: s.offsets });
    return r.allocation;
  };
}
