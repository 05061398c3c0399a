// The sidecar's errors name fields as the request wrote them (src/live/protocol.ts,
// requestField): a queue is `queue` and its settings are top-level keys, never the scheduler
// API's `name` and `options.X`; the message starts with the same field.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { ServeSession } from "../../src/live/protocol.js";

const engine = loadEngineSync();

describe("serve errors in the protocol's own words", () => {
  it("names queue, weight and bursts[i] as the request wrote them, under every op that takes a queue", () => {
    const s = new ServeSession(engine);
    const send = (o: unknown) => JSON.parse(s.handle(JSON.stringify(o)));
    send({ op: "init", policy: "drf", capacity: [4], clock: "manual" });
    send({ op: "addQueue", queue: "A" });
    expect(send({ op: "removeQueue", queue: "zz" })).toEqual({ error: "queue: unknown queue 'zz'", field: "queue" });
    expect(send({ op: "addQueue", queue: "A" })).toEqual({ error: "queue: queue 'A' exists already", field: "queue" });
    expect(send({ op: "addQueue", queue: "" })).toMatchObject({ field: "queue" });
    expect(send({ op: "addQueue", queue: "B", weight: -1 })).toEqual({ error: "weight: must be a number in [2^-20, 2^20] (about 9.5e-7 to 1.05e6; got -1)", field: "weight" });
    expect(send({ op: "updateQueue", queue: "A", weight: 0 })).toMatchObject({ field: "weight" });
    expect(send({ op: "updateQueue", queue: "nope", weight: 1 })).toMatchObject({ field: "queue" });
    expect(send({ op: "explain", queue: "nope" })).toMatchObject({ field: "queue" });
    expect(send({ op: "submit", queue: "nope", task: { id: "a", demand: [1] } })).toMatchObject({ field: "queue" });
    expect(send({ op: "finish", id: "nope" })).toMatchObject({ field: "id" });
    for (const r of [send({ op: "removeQueue", queue: "zz" }), send({ op: "addQueue", queue: "B", weight: -1 })]) expect(r.error.startsWith(`${r.field}: `)).toBe(true);
  });
});

describe("serve answers keep every digit", () => {
  it("shares and targets equal the library's bit for bit (JSON a program reads is not rounded)", async () => {
    const { createScheduler } = await import("../../src/live/scheduler.js");
    const s = new ServeSession(engine);
    const send = (o: unknown) => JSON.parse(s.handle(JSON.stringify(o)));
    const lib = createScheduler({ policy: "bopf", capacity: [3, 7], engine, clock: () => 1 });
    send({ op: "init", policy: "bopf", capacity: [3, 7], clock: "manual" });
    for (const [q, w] of [["A", 1], ["B", 3], ["C", 7]] as const) {
      send({ op: "addQueue", queue: q, weight: w });
      lib.addQueue(q, { weight: w });
      for (let i = 0; i < 3; i++) {
        send({ op: "submit", queue: q, task: { id: `${q}${i}`, demand: [1, 1] } });
        lib.submit(q, { id: `${q}${i}`, demand: [1, 1] });
      }
    }
    send({ op: "schedule", time: 1 });
    lib.schedule();
    const shares = send({ op: "shares", time: 1 }).shares;
    expect(shares).toEqual(lib.shares());
    // a value no short decimal writes, kept as it is
    expect(shares.some((q: { dominantShare: number }) => String(q.dominantShare).length > 12)).toBe(true);
  });
});
