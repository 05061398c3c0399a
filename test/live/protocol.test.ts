// The sidecar protocol (src/live/protocol.ts): the session, a bad line in the middle that
// gets {"error"} and changes nothing, a manual clock.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { ServeSession } from "../../src/live/protocol.js";

const engine = loadEngineSync();

describe("serve protocol", () => {
  it("runs the DRF example; bad requests get an error and leave the state as it was", () => {
    const s = new ServeSession(engine);
    const send = (o: unknown) => JSON.parse(s.handle(typeof o === "string" ? o : JSON.stringify(o)));
    expect(send({ op: "schedule" }).error).toMatch(/init/);
    expect(send({ op: "init", policy: "drf", capacity: [9, 18], clock: "manual" })).toEqual({ ok: true, policy: "drf" });
    expect(send({ op: "addQueue", queue: "A", weight: 1 }).admission.class).toBe("admitted");
    send({ op: "addQueue", queue: "B" });
    for (let i = 0; i < 5; i++) {
      expect(send({ op: "submit", queue: "A", task: { id: `a${i}`, demand: [1, 4] } })).toEqual({ ok: true });
      send({ op: "submit", queue: "B", task: { id: `b${i}`, demand: [3, 1] } });
    }
    const before = send({ op: "snapshot" });
    expect(send("{not json").error).toMatch(/JSON/);
    expect(send({ op: "submit", queue: "A", task: { id: "a0", demand: [1, 4] } })).toMatchObject({ field: "task.id" });
    expect(send({ op: "submit", queue: "A", task: { id: "x", demand: [1] } })).toMatchObject({ field: "task.demand" });
    expect(send({ op: "submit", queue: "Z", task: { id: "x", demand: [1, 1] } })).toMatchObject({ field: "queue" });
    expect(send({ op: "frobnicate" })).toMatchObject({ field: "op" });
    expect(send({ op: "schedule", fre: [1, 1] })).toMatchObject({ field: "fre" });
    expect(send({ op: "snapshot" })).toEqual(before);
    const started = send({ op: "schedule", time: 1 }).started;
    expect(started.filter((t: { queue: string }) => t.queue === "A")).toHaveLength(3);
    expect(started.filter((t: { queue: string }) => t.queue === "B")).toHaveLength(2);
    expect(send({ op: "finish", id: "a0", time: 0.5 })).toMatchObject({ field: "time" }); // time never goes back
    expect(send({ op: "finish", id: "a0", time: 2 })).toEqual({ ok: true });
    const shares = send({ op: "shares" }).shares;
    expect(shares[0].accumulated).toBeCloseTo(2 / 3, 12); // 2/3 of the memory held for one second
    expect(send({ op: "explain", queue: "A" }).rank).toBe(1);
    const r = new ServeSession(engine);
    expect(JSON.parse(r.handle(JSON.stringify({ op: "restore", snapshot: send({ op: "snapshot" }).snapshot, clock: "manual", time: 2 })))).toEqual({ ok: true, policy: "drf" });
    expect(JSON.parse(r.handle('{"op":"schedule"}'))).toEqual(send({ op: "schedule" }));
  });

  it("BoPF over the protocol: admission classes, a burst opened by a task, its end as the next wake-up", () => {
    const s = new ServeSession(engine);
    const send = (o: unknown) => JSON.parse(s.handle(JSON.stringify(o)));
    expect(send({ op: "init", policy: "bopf", capacity: [10], clock: "manual", policyOptions: { expiry: "deadline" } })).toEqual({ ok: true, policy: "bopf" });
    expect(send({ op: "addQueue", queue: "batch" }).admission.class).toBe("elastic");
    const lq = send({ op: "addQueue", queue: "lq", kind: "LQ", bursts: [{ start: 0, window: 5, volume: [20] }] }).admission;
    expect(lq.class).toBe("hard");
    expect(send({ op: "addQueue", queue: "bad", kind: "LQ", bursts: [{ start: 0, window: 0, volume: [1] }] })).toMatchObject({ field: "bursts[0].window" });
    for (let i = 0; i < 10; i++) send({ op: "submit", queue: "batch", task: { id: `b${i}`, demand: [1] } });
    expect(send({ op: "nextWakeup" })).toEqual({ time: null });
    for (let i = 0; i < 4; i++) send({ op: "submit", queue: "lq", task: { id: `l${i}`, demand: [1], job: "burst0", burst: 0 }, time: 1 });
    expect(send({ op: "nextWakeup" })).toEqual({ time: 6 }); // the burst's window ends at 1 + 5
    const started = send({ op: "schedule", time: 1 }).started;
    // the hard LQ gets its rate (20 / 5 = 4 units) first; the batch queue gets the rest
    expect(started.slice(0, 4).every((t: { queue: string }) => t.queue === "lq")).toBe(true);
    expect(started).toHaveLength(10);
  });
});
