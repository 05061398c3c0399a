// `fairsched serve`'s bounds over real sockets (src/cli/serve.ts, src/live/protocol.ts): a line
// without a newline, a client that sends requests and never reads, a manual-clock jump of 120
// days under LTRF, a restore naming a handle near 2^24, and the queue and task limits. In each, a
// second client connected to the same server keeps getting its answers, and the hostile session
// is closed with an error line (or its request refused) as docs/live-scheduler.md says.
import { spawn } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { createScheduler } from "../../src/live/scheduler.js";
import { startServeTcp, type RunningServer, type ServeLimits } from "../../src/cli/serve.js";
import { lineSocket } from "../helpers/line-socket.js";

const engine = loadEngineSync();
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let running: RunningServer | null = null;
const clients: Socket[] = [];

afterEach(async () => {
  clients.splice(0).forEach((c) => c.destroy());
  if (running) await new Promise<void>((r) => running!.server.close(() => r()));
  running = null;
});

async function serve(limits: Partial<ServeLimits> = {}): Promise<number> {
  let port = 0;
  running = await startServeTcp(engine, 0, { limits, onListening: (p) => { port = p; } });
  return port;
}

/** A client reading answer lines; `ask` sends one request and waits for its answer. */
function client(port: number) {
  const c = lineSocket(port);
  clients.push(c.sock);
  return {
    ...c,
    async ask(req: unknown): Promise<Record<string, unknown>> {
      const n = c.lines.length;
      c.sock.write(JSON.stringify(req) + "\n");
      if (!(await c.until(() => c.lines.length > n))) throw new Error(`connection closed; got ${JSON.stringify(c.lines)}`);
      return JSON.parse(c.lines[n]) as Record<string, unknown>;
    },
  };
}

/** A well-behaved session that must keep being answered. */
async function bystander(port: number) {
  const b = client(port);
  expect(await b.ask({ op: "init", policy: "drf", capacity: [4], clock: "manual" })).toEqual({ ok: true, policy: "drf" });
  expect(await b.ask({ op: "addQueue", queue: "A" })).toHaveProperty("admission");
  let n = 0;
  return async () => {
    const id = `t${n++}`;
    expect(await b.ask({ op: "submit", queue: "A", task: { id, demand: [1] } })).toEqual({ ok: true });
    expect(await b.ask({ op: "finish", id })).toMatchObject({ field: "id" }); // waiting, not running: refused, answered
    expect(await b.ask({ op: "cancel", id })).toMatchObject({ id, queue: "A", wasRunning: false });
  };
}

describe("serve --listen: one client cannot take what the others need", () => {
  it("a line without a newline past --max-line-bytes closes that session with an error line; a line at the bound is served", async () => {
    const port = await serve({ maxLineBytes: 4096 });
    const check = await bystander(port);
    const a = client(port);
    const atBound = JSON.stringify({ op: "init", policy: "drf", capacity: [1] });
    expect(await a.ask(JSON.parse(atBound))).toEqual({ ok: true, policy: "drf" });
    a.sock.write(atBound.padEnd(4096, " ") + "\n"); // exactly 4096 bytes: a request
    a.sock.write("[" + "1,".repeat(3000)); // 6001 bytes and no newline
    await a.closedPromise;
    expect(a.lines.map((l) => JSON.parse(l))).toEqual([
      { ok: true, policy: "drf" },
      { ok: true, policy: "drf" },
      { error: "request: a line longer than 4096 bytes (serve --max-line-bytes); the session is closed", field: "request" },
    ]);
    expect(running!.sessions[1].closedFor).toMatch(/^request: /);
    await check();
  }, 60_000);

  it("a client that sends snapshot requests and never reads is not read from (back-pressure), loses nothing, and the others are served", async () => {
    const port = await serve();
    const check = await bystander(port);
    const a = client(port);
    await a.ask({ op: "init", policy: "drf", capacity: [1e6], clock: "manual" });
    await a.ask({ op: "addQueue", queue: "Q" });
    for (let i = 0; i < 300; i++) a.sock.write(JSON.stringify({ op: "submit", queue: "Q", task: { id: `task-${i}`, demand: [1] } }) + "\n");
    await a.ask({ op: "schedule", time: 1 });
    const snapshot = (await a.ask({ op: "snapshot" })).snapshot;
    const answerBytes = JSON.stringify({ snapshot }).length + 1;
    a.sock.pause(); // reads nothing from here on
    const sent = 800; // about 800 x 20 KB = 16 MB of answers asked for with 14 KB of requests
    a.sock.write(Array.from({ length: sent }, () => '{"op":"snapshot"}\n').join(""));
    const stats = running!.sessions[1];
    const handledBefore = stats.requests;
    await new Promise((r) => setTimeout(r, 1500));
    await check(); // served while A's answers wait
    const stalled = stats.requests - handledBefore;
    expect(stalled).toBeLessThan(sent);
    // what waits in the server: at most the pause threshold (64 KiB) plus one answer
    expect(stats.peakQueuedBytes).toBeLessThanOrEqual(64 * 1024 + answerBytes);
    expect(stats.closedFor).toBeNull();
    // A reads again: every answer arrives, in order, nothing dropped
    const before = a.lines.length;
    a.sock.resume();
    while (a.lines.length < before + sent) await new Promise((r) => setTimeout(r, 20));
    expect(a.lines.slice(before).every((l) => l.startsWith('{"snapshot":'))).toBe(true);
    expect(stats.requests - handledBefore).toBe(sent);
  }, 120_000);

  it("an answer that would leave more than --max-queued-bytes waiting for a client that does not read closes its session", async () => {
    const port = await serve({ maxQueuedBytes: 64 * 1024 });
    const check = await bystander(port);
    const a = client(port);
    await a.ask({ op: "init", policy: "drf", capacity: [1e6], clock: "manual" });
    await a.ask({ op: "addQueue", queue: "Q" });
    for (let i = 0; i < 3000; i++) a.sock.write(JSON.stringify({ op: "submit", queue: "Q", task: { id: `task-${i}`, demand: [1] } }) + "\n");
    await a.ask({ op: "nextWakeup" });
    a.sock.pause();
    a.sock.write('{"op":"snapshot"}\n'.repeat(2000)); // answers of about 200 KB each
    const stats = running!.sessions[1];
    while (stats.closedFor === null) await new Promise((r) => setTimeout(r, 20));
    expect(stats.closedFor).toMatch(/^output: \d+ bytes of answers wait for the client to read them, past the limit of 65536/);
    await check();
  }, 120_000);

  it("a manual-clock LTRF session jumping 120 days at once is served at once (no work per second crossed), and the other session never notices", async () => {
    const port = await serve();
    const check = await bystander(port);
    const a = client(port);
    await a.ask({ op: "init", policy: "ltrf", capacity: [10], clock: "manual" });
    for (let q = 0; q < 100; q++) await a.ask({ op: "addQueue", queue: `q${q}` });
    for (let q = 0; q < 100; q++) await a.ask({ op: "submit", queue: `q${q}`, task: { id: `t${q}`, demand: [0.05] } });
    expect((await a.ask({ op: "schedule", time: 1 })).started).toHaveLength(100);
    expect(await a.ask({ op: "finish", id: "t0", time: 120 * 86400 })).toEqual({ ok: true });
    expect(await a.ask({ op: "submit", queue: "q0", task: { id: "x", demand: [1] }, time: 120 * 86400 })).toEqual({ ok: true });
    expect(await a.ask({ op: "schedule", time: 240 * 86400 })).toEqual({ started: [{ id: "x", queue: "q0" }] });
    await check();
  }, 120_000);

  it("a restore naming a handle near 2^24 is refused before it takes any slot; queues and tasks past their limits are refused", async () => {
    const port = await serve({ maxQueues: 3, maxTasks: 5 });
    const check = await bystander(port);
    const s = createScheduler({ policy: "drf", capacity: [4], engine, clock: () => 0 });
    s.addQueue("A");
    s.submitHandle("A", [1]);
    const snap = s.snapshot();
    snap.queues[0].waiting[0].id = String(2 ** 24 - 2);
    const a = client(port);
    expect(await a.ask({ op: "restore", snapshot: snap })).toEqual({
      error: `snapshot.queues[0].waiting[0].id: handle ${2 ** 24 - 2} would take ${2 ** 24 - 1} task slots, past this session's limit of 5 (serve --max-tasks)`,
      field: "snapshot.queues[0].waiting[0].id",
    });
    snap.queues[0].waiting[0].id = "4";
    expect(await a.ask({ op: "restore", snapshot: snap })).toEqual({ ok: true, policy: "drf" });
    await a.ask({ op: "init", policy: "drf", capacity: [4] });
    for (const q of ["A", "B", "C"]) expect(await a.ask({ op: "addQueue", queue: q })).toHaveProperty("admission");
    expect(await a.ask({ op: "addQueue", queue: "D" })).toMatchObject({ field: "queue", error: "queue: the session holds 3 queues, its limit (serve --max-queues)" });
    await a.ask({ op: "removeQueue", queue: "C" });
    expect(await a.ask({ op: "addQueue", queue: "D" })).toHaveProperty("admission");
    for (let i = 0; i < 5; i++) expect(await a.ask({ op: "submit", queue: "A", task: { id: `t${i}`, demand: [1] } })).toEqual({ ok: true });
    expect(await a.ask({ op: "submit", queue: "A", task: { id: "t5", demand: [1] } })).toMatchObject({ field: "task" });
    await a.ask({ op: "cancel", id: "t0" });
    expect(await a.ask({ op: "submit", queue: "A", task: { id: "t5", demand: [1] } })).toEqual({ ok: true });
    await check();
  }, 60_000);
});

describe("serve over stdin", () => {
  it("a line past --max-line-bytes ends the session with an error line after the answers before it", async () => {
    const child = spawn("node_modules/.bin/tsx", ["src/cli/main.ts", "serve", "--max-line-bytes", "100"], { cwd: ROOT });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stdin.on("error", () => {});
    child.stdin.write('{"op":"init","policy":"drf","capacity":[1]}\n');
    child.stdin.write(`{"op":"addQueue","queue":"${"x".repeat(200)}"}\n{"op":"nextWakeup"}\n`);
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(0);
    expect(out.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
      { ok: true, policy: "drf" },
      { error: "request: a line longer than 100 bytes (serve --max-line-bytes); the session is closed", field: "request" },
    ]);
  }, 60_000);
});
