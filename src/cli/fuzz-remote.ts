// Allocators that run outside the fuzzer's own thread, so that a crash, a hang or garbage is a
// finding and never takes the fuzzer down: a command speaking JSON lines (--cmd) or an ES
// module's default export in a worker thread (--allocator). Each call waits at most
// `timeoutMs` (a command's first call after it starts gets STARTUP_GRACE_MS more, to boot);
// on a timeout the child is killed, restarted and asked once more (a loaded machine can miss
// one deadline), and a second timeout is the finding.
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import { AllocatorFault } from "../testkit/axioms.js";
import type { Allocation, ClusterState } from "../testkit/types.js";

export interface RemoteAllocator {
  /** Resolves to the allocation, or rejects with an AllocatorFault naming the input. */
  allocate(state: ClusterState): Promise<Allocation>;
  close(): void;
}

/** Extra time for a command's first answer after it starts (interpreters take a while to boot). */
export const STARTUP_GRACE_MS = 3000;

const clip = (s: string, n = 200) => (s.length > n ? s.slice(0, n) + "..." : s);

/**
 * `--cmd "COMMAND"`: started once (through the shell), one JSON request line per call on its
 * stdin, one JSON response line `{"allocation": [[...], ...]}` on its stdout.
 */
export function commandAllocator(command: string, timeoutMs: number): RemoteAllocator {
  let child: ChildProcess | null = null;
  let buffer = "";
  let stderrTail = "";
  let waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  const lines: string[] = [];

  const kill = () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    // the shell and what it started are one process group (detached): end them all
    try { process.kill(-c.pid!, "SIGKILL"); } catch { c.kill("SIGKILL"); }
  };
  const start = (): ChildProcess => {
    buffer = "";
    stderrTail = "";
    lines.length = 0;
    const c = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"], detached: true });
    c.stdout!.setEncoding("utf8");
    c.stderr!.setEncoding("utf8");
    c.stdout!.on("data", (chunk: string) => {
      if (c !== child) return;
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at).replace(/\r$/, "");
        buffer = buffer.slice(at + 1);
        if (waiting) { const w = waiting; waiting = null; w.resolve(line); } else lines.push(line);
      }
    });
    c.stderr!.on("data", (chunk: string) => { stderrTail = (stderrTail + chunk).slice(-400); });
    const gone = (why: string) => {
      if (c !== child) return;
      child = null;
      if (waiting) { const w = waiting; waiting = null; w.reject(new Error(why)); }
    };
    c.on("error", (e) => gone(`the command could not run: ${e.message}`));
    c.on("exit", (code, signal) => gone(`the command exited (${signal ?? `code ${code}`})${stderrTail.trim() ? `, stderr: ${clip(stderrTail.trim())}` : ""}`));
    c.stdin!.on("error", () => {}); // EPIPE after it died: reported by 'exit'
    child = c;
    return c;
  };
  const nextLine = (c: ChildProcess, state: ClusterState, limitMs: number): Promise<string> => {
    if (lines.length > 0) return Promise.resolve(lines.shift()!);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = null;
        kill();
        reject(new AllocatorFault(`the command did not answer within ${timeoutMs} ms, twice (killed and restarted)`, state, true));
      }, limitMs);
      waiting = {
        resolve: (l) => { clearTimeout(timer); resolve(l); },
        reject: (e) => { clearTimeout(timer); reject(new AllocatorFault(e.message, state)); },
      };
      if (c !== child) waiting.reject(new Error("the command exited"));
    });
  };
  const request = (state: ClusterState) => JSON.stringify({
    capacity: state.capacity, demands: state.demands, weights: state.weights,
    ...(state.tasks ? { tasks: state.tasks } : {}), ...(state.offsets ? { offsets: state.offsets } : {}),
  }) + "\n";
  const exchange = async (state: ClusterState): Promise<string> => {
    const fresh = child === null;
    const c = child ?? start();
    c.stdin!.write(request(state));
    return nextLine(c, state, timeoutMs + (fresh ? STARTUP_GRACE_MS : 0));
  };
  return {
    async allocate(state) {
      let line: string;
      try {
        line = await exchange(state);
      } catch (e) {
        if (!(e instanceof AllocatorFault && e.hang)) throw e;
        line = await exchange(state); // once more, on a fresh child
      }
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        kill(); // out of step with its own output: start afresh
        throw new AllocatorFault(`the command printed garbage instead of a JSON line: ${JSON.stringify(clip(line))}`, state);
      }
      if (msg && typeof msg === "object" && "allocation" in msg) return (msg as { allocation: Allocation }).allocation;
      if (msg && typeof msg === "object" && "error" in msg) throw new AllocatorFault(`the command answered with an error: ${clip(String((msg as { error: unknown }).error))}`, state);
      throw new AllocatorFault(`the command answered ${clip(line)}, expected {"allocation": [[...], ...]}`, state);
    },
    close: kill,
  };
}

const workerUrl = new URL("./fuzz-worker.js", import.meta.url);

/** `--allocator FILE.mjs`: the module's default export, run in a worker thread (restarted after a timeout or crash). */
export async function moduleAllocator(file: string, timeoutMs: number): Promise<RemoteAllocator> {
  const href = pathToFileURL(file).href;
  let worker: Worker | null = null;
  let seq = 0;
  const pending = new Map<number, { w: Worker; resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** Fails the calls waiting on thread `w` (null: all). */
  const failAll = (w: Worker | null, why: string) => {
    for (const [id, p] of pending) if (w === null || p.w === w) { pending.delete(id); p.reject(new Error(why)); }
  };
  const start = (): Promise<Worker> => new Promise((resolve, reject) => {
    // its console output is drained, not mixed into the report on our stdout
    const w = new Worker(workerUrl, { workerData: { href }, stdout: true, stderr: true });
    w.stdout.resume();
    w.stderr.resume();
    let ready = false;
    w.on("message", (m: { ready?: boolean; loadError?: string; id?: number; allocation?: unknown; error?: string }) => {
      if (m.loadError !== undefined) { reject(new InputError("--allocator", `${file}: ${m.loadError}`)); void w.terminate(); return; }
      if (m.ready) { ready = true; resolve(w); return; }
      const p = pending.get(m.id!);
      if (!p) return;
      pending.delete(m.id!);
      if (m.error !== undefined) p.reject(new Error(`the allocator threw: ${m.error}`));
      else p.resolve(m.allocation);
    });
    w.on("error", (e) => { if (!ready) reject(new InputError("--allocator", `${file}: ${e.message}`)); else failAll(w, `the allocator crashed its thread: ${e.message}`); if (worker === w) worker = null; });
    w.on("exit", (code) => { if (!ready) reject(new InputError("--allocator", `${file}: the module exited (code ${code}) while loading`)); failAll(w, `the allocator's thread exited (code ${code})`); if (worker === w) worker = null; });
  });
  worker = await start();
  const once = async (state: ClusterState): Promise<Allocation> => {
      worker ??= await start();
      const w = worker;
      const id = ++seq;
      return new Promise<Allocation>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          if (worker === w) worker = null;
          void w.terminate();
          reject(new AllocatorFault(`the allocator did not answer within ${timeoutMs} ms, twice (its thread was stopped and restarted)`, state, true));
        }, timeoutMs);
        pending.set(id, {
          w,
          resolve: (v) => { clearTimeout(timer); resolve(v as Allocation); },
          reject: (e) => { clearTimeout(timer); reject(new AllocatorFault(e.message, state)); },
        });
        w.postMessage({ id, state });
      });
  };
  return {
    async allocate(state) {
      try {
        return await once(state);
      } catch (e) {
        if (!(e instanceof AllocatorFault && e.hang)) throw e;
        return once(state); // once more, on a fresh thread
      }
    },
    close() {
      failAll(null, "closed");
      void worker?.terminate();
      worker = null;
    },
  };
}
