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
    expect(send({ op: "addQueue", queue: "B", weight: -1 })).toEqual({ error: "weight: must be a finite number > 0 (got -1)", field: "weight" });
    expect(send({ op: "updateQueue", queue: "A", weight: 0 })).toMatchObject({ field: "weight" });
    expect(send({ op: "updateQueue", queue: "nope", weight: 1 })).toMatchObject({ field: "queue" });
    expect(send({ op: "explain", queue: "nope" })).toMatchObject({ field: "queue" });
    expect(send({ op: "submit", queue: "nope", task: { id: "a", demand: [1] } })).toMatchObject({ field: "queue" });
    expect(send({ op: "finish", id: "nope" })).toMatchObject({ field: "id" });
    for (const r of [send({ op: "removeQueue", queue: "zz" }), send({ op: "addQueue", queue: "B", weight: -1 })]) expect(r.error.startsWith(`${r.field}: `)).toBe(true);
  });
});
