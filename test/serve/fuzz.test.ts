// `fairsched serve` sessions over real sockets (src/cli/serve.ts), run by `npm run fuzz` with many
// more sequences: random request sequences, valid and hostile (unknown ops and keys, bad JSON,
// long manual-clock jumps, restores of the session's own snapshots and of
// snapshots naming huge handles, queues and tasks past small limits, lines past the line bound),
// sent over a TCP connection to a server on a free port while a second client keeps asking.
// Every request line gets exactly one answer line, in order; each answer is the one the same
// request gets from the protocol in process (ServeSession, manual clock: deterministic); an error
// names its field first; the server stays up and the bystander's answers stay right.
import fc from "fast-check";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { ServeSession } from "../../src/live/protocol.js";
import { startServeTcp, type RunningServer } from "../../src/cli/serve.js";
import { lineSocket } from "../helpers/line-socket.js";

const engine = loadEngineSync();
/** Sequences per run: a few in the suite (each opens a connection), FUZZ_RUNS under `npm run fuzz`. */
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 15;
const LIMITS = { maxLineBytes: 2048, maxQueues: 3, maxTasks: 6 };
let running: RunningServer;
let port = 0;

beforeAll(async () => {
  running = await startServeTcp(engine, 0, { limits: LIMITS, onListening: (p) => { port = p; } });
});
afterAll(async () => {
  await new Promise<void>((r) => running.server.close(() => r()));
});

/** A connection that sends lines and collects answer lines until it has `n` of them or it closes. */
function open(): { sock: Socket; send(lines: string[], n: number): Promise<string[]> } {
  const c = lineSocket(port);
  return {
    sock: c.sock,
    async send(out: string[], n: number) {
      const from = c.lines.length;
      if (out.length) c.sock.write(out.map((l) => l + "\n").join(""));
      await c.until(() => c.lines.length - from >= n);
      return c.lines.slice(from);
    },
  };
}

const policy = fc.constantFrom("drf", "fifo", "bopf", "ltrf", "h-ltrf", "mbvt");
const queue = fc.constantFrom("A", "B", "C", "D");
const id = fc.constantFrom("t0", "t1", "t2", "t3", "t4", "t5", "t6");
/** A request: an object, or the marker of one built from the session (its own snapshot). */
type Req = Record<string, unknown> | { own: "restore" } | { raw: string };
const request: fc.Arbitrary<Req> = fc.oneof(
  fc.record({ op: fc.constant("addQueue"), queue, weight: fc.constantFrom(1, 2, -1) }, { requiredKeys: ["op", "queue"] }),
  fc.record({ op: fc.constant("removeQueue"), queue }),
  fc.record({ op: fc.constant("submit"), queue, task: fc.record({ id, demand: fc.constantFrom([1], [2], [9], [-1]) }) }),
  fc.record({ op: fc.constantFrom("finish", "cancel"), id }),
  fc.record({ op: fc.constant("schedule"), time: fc.constantFrom(1, 5, 60, 3600, 1e6) }, { requiredKeys: ["op"] }),
  fc.record({ op: fc.constantFrom("shares", "nextWakeup", "snapshot") }),
  fc.record({ op: fc.constant("explain"), queue }),
  fc.record({ op: fc.constantFrom("frobnicate", 7), extra: fc.constant(1) }, { requiredKeys: ["op"] }),
  fc.constant<Req>({ own: "restore" }),
  fc.constant<Req>({ op: "restore", snapshot: { version: 3, policy: "drf", capacity: [4], resources: ["r0"], reservation: false, time: 0, handles: true, queues: [{ name: "A", spec: { name: "A", kind: "TQ" }, accumulated: 0, since: 0, waiting: [{ id: "16777214", demand: [1], submitted: 0 }], running: [] }] } }),
  fc.constantFrom<Req>({ raw: "{not json" }, { raw: "[]" }, { raw: " " }),
);

describe("serve sessions over real sockets", () => {
  it("answer every line once, in order, as the protocol does in process; a bystander is served throughout", async () => {
    const bystander = open();
    expect(await bystander.send(['{"op":"init","policy":"drf","capacity":[2],"clock":"manual"}'], 1)).toEqual(['{"ok":true,"policy":"drf"}']);
    await fc.assert(fc.asyncProperty(policy, fc.array(request, { maxLength: 25 }), fc.boolean(), async (p, reqs, overlong) => {
      const model = new ServeSession(engine, LIMITS);
      const conn = open();
      try {
        const init = JSON.stringify({ op: "init", policy: p, capacity: [4], clock: "manual" });
        expect(await conn.send([init], 1)).toEqual([model.handle(init)]);
        let lastSnapshot: unknown = null;
        for (const r of reqs) {
          let line: string;
          if ("own" in r) {
            if (lastSnapshot === null) continue;
            line = JSON.stringify({ op: "restore", snapshot: lastSnapshot, clock: "manual" });
          } else if ("raw" in r) line = String(r.raw);
          else line = JSON.stringify(r);
          if (line.trim() === "") continue; // no answer to an empty line
          if (line.length > LIMITS.maxLineBytes) continue;
          const [got] = await conn.send([line], 1);
          const want = model.handle(line);
          expect(got).toBe(want);
          const answer = JSON.parse(got) as Record<string, unknown>;
          if ("error" in answer && "field" in answer) expect(String(answer.error).startsWith(`${String(answer.field)}: `)).toBe(true);
          if ("snapshot" in answer) lastSnapshot = answer.snapshot;
        }
        if (overlong) {
          const closed = await conn.send(["x".repeat(LIMITS.maxLineBytes + 1)], 1);
          expect(closed.map((l) => JSON.parse(l).field)).toEqual(["request"]);
        }
        // the bystander: one more answer, right, whatever the other session did
        expect(await bystander.send(['{"op":"nextWakeup"}'], 1)).toEqual(['{"time":null}']);
      } finally {
        conn.sock.destroy();
      }
    }), { numRuns: RUNS });
    bystander.sock.destroy();
  }, 300_000);
});
