// The reference DRF behind the JSON-lines protocol, as any other language would speak it:
//   fairsched fuzz --cmd "node examples/drf-cmd.mjs"
import { createInterface } from "node:readline";
import { loadEngineSync } from "fairsched";

const engine = loadEngineSync();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { capacity, demands, weights } = JSON.parse(line);
  const flat = engine.drf({ capacity, demands, weights }).allocation;
  const k = capacity.length;
  const allocation = demands.map((_, i) => Array.from(flat.subarray(i * k, i * k + k)));
  process.stdout.write(JSON.stringify({ allocation }) + "\n");
}
