import { it } from "vitest";
import { createScheduler } from "../../src/live/scheduler.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { checkScheduler } from "../../src/testkit/scheduler/check-scheduler.js";
it("try", async () => {
  const engine = loadEngineSync();
  for (const policy of (process.env.POL ?? "drf").split(",")) {
    const r = await checkScheduler((o) => createScheduler({ ...o, engine } as never) as never, { init: { policy }, seed: 1, runs: Number(process.env.RUNS ?? 30) });
    console.log(policy, r.ops, r.seconds.toFixed(1), (r.ops / r.seconds).toFixed(0), "ops/s");
    for (const p of r.properties) console.log(" ", p.property, p.passed ? "ok" : "FAIL", p.skipped ? "skip" : "", p.message ?? "");
  }
}, 600000);
