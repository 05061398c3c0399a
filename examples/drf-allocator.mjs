// The reference DRF as a `fairsched fuzz --allocator` module: the default export is the
// allocate function (state -> N x K allocation, here the flat queue-major Float64Array).
//   fairsched fuzz --allocator examples/drf-allocator.mjs
import { loadEngineSync } from "fairsched";

const engine = loadEngineSync();

export default function allocate({ capacity, demands, weights }) {
  return engine.drf({ capacity, demands, weights }).allocation;
}
