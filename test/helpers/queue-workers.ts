// Real `fairsched worker` processes for the queue tests: the CLI from the TS sources under tsx,
// one process each, with the slow fixture scenario loaded in every thread.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
export const SLOW_FIXTURE = fileURLToPath(new URL("../fixtures/slow-scenario.ts", import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  log(): string;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
  exited: Promise<number | null>;
}

export function startWorkerProcess(queue: string, env: Record<string, string>, extra: string[] = []): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "worker", "--queue", queue, "--workers", "1", "--module", SLOW_FIXTURE, ...extra], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => { log += d; });
  child.stderr!.on("data", (d) => { log += d; });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return {
    child, exited,
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
