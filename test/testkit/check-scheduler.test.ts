// checkScheduler in-process: every fairsched policy passes what it claims (FAIRSCHED_CLAIMS,
// docs/testkit.md) with createScheduler behind the method adapter; a scheduler that breaks a
// property in-process is found and named, and its saved case replays.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { createScheduler } from "../../src/live/scheduler.js";
import { checkScheduler, FAIRSCHED_CLAIMS, readSchedulerCase, replaySchedulerCase, type SchedulerFactory } from "../../src/testkit/index.js";

const engine = loadEngineSync();
const seed = fc.readConfigureGlobal().seed as number;
const live: SchedulerFactory = (o) => createScheduler({ ...o, engine } as Parameters<typeof createScheduler>[0]) as never;

describe("checkScheduler: fairsched's policies pass what they claim", () => {
  for (const [name, claims] of Object.entries(FAIRSCHED_CLAIMS)) {
    it(`${name}: ${claims.properties.join(", ")}`, async () => {
      const report = await checkScheduler(live, { init: claims.init, properties: claims.properties, runs: 15, seed });
      expect(report.failed, report.properties.map((p) => p.message ?? "").join("\n")).toEqual([]);
      expect(report.ops).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe("checkScheduler: an in-process scheduler that decides on every other call", () => {
  // online DRF through createScheduler, but every second schedule() call starts nothing
  const onePerCall: SchedulerFactory = (o) => {
    const s = createScheduler({ ...o, engine, policy: "drf" } as Parameters<typeof createScheduler>[0]);
    let calls = 0;
    return {
      addQueue: (n, opts) => s.addQueue(n, opts),
      removeQueue: (n) => s.removeQueue(n),
      submit: (q, t) => s.submit(q, t),
      cancel: (id) => s.cancel(id),
      finish: (id) => s.finish(id),
      schedule: () => (calls++ % 2 === 1 ? [] : s.schedule()),
      nextWakeup: () => s.nextWakeup(),
    };
  };
  it("is named by call-rate-independence, and its case replays", async () => {
    const report = await checkScheduler(onePerCall, { properties: ["call-rate-independence"], runs: 30, seed });
    expect(report.failed).toEqual(["call-rate-independence"]);
    const p = report.properties[0];
    const c = readSchedulerCase(p.trace!);
    expect(c.property).toBe("call-rate-independence");
    expect(await replaySchedulerCase(onePerCall, c)).toMatch(/changed a decision|refused/);
    expect(await replaySchedulerCase(live, { ...c, init: { policy: "drf" } })).toBeNull();
  }, 120_000);
});
