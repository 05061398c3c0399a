// A real redis-server for the Redis benches and tests: started on a free 127.0.0.1 port with its own temp dir, stopped
// (and the dir removed) by stop(). restart() stops it and starts it again on the same port (with
// persistence the data survives; without it Redis comes back empty). Never a mock.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";

export interface TestRedis {
  port: number;
  url: string;
  /** Stops and starts the server on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A port the kernel says is free on 127.0.0.1 now (redis-server has no --port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`redis-server exited with ${child.exitCode}: ${log()}`));
      const c = createConnection({ port, host: "127.0.0.1" });
      c.once("connect", () => { c.end(); resolve(); });
      c.once("error", () => {
        c.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on ${port}: ${log()}`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

export async function startRedis(opts: { persist?: boolean } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "fairsched-redis-"));
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", opts.persist ? "yes" : "no"];
    if (opts.persist) args.push("--appendfsync", "always");
    let log = "";
    child = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d) => { log += d; });
    child.stderr!.on("data", (d) => { log += d; });
    await waitForPort(port, child, () => log);
  };
  const halt = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
