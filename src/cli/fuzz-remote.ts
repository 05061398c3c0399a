// Allocators that run outside the fuzzer's own thread, so that a crash, a hang or garbage is a
// finding and never takes the fuzzer down: a command speaking JSON lines (--cmd) or an ES
// module's default export in a worker thread (--allocator). Each call waits at most
// `timeoutMs` (a command's first call after it starts gets STARTUP_GRACE_MS more, to boot;
// the command's transport, with its bounds, is ./fuzz-transport.ts); on a timeout the child is
// killed, restarted and asked once more (a loaded machine can miss one deadline), and a second
// timeout is the finding.
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { InputError } from "../errors.js";
import { clip, openLineChannel, TransportFault } from "./fuzz-transport.js";
import { AllocatorFault } from "../testkit/axioms.js";
import type { Allocation, ClusterState } from "../testkit/types.js";

export interface RemoteAllocator {
  /** Resolves to the allocation, or rejects with an AllocatorFault naming the input. */
  allocate(state: ClusterState): Promise<Allocation>;
  close(): void;
}

/**
 * `--cmd "COMMAND"`: started once (through the shell), one JSON request line per call on its
 * stdin, one JSON response line `{"allocation": [[...], ...]}` on its stdout. Each request
 * carries `"id": n`; an answer that echoes an `id` must echo that one (strict alternation is
 * checked by the transport either way).
 */
export function commandAllocator(command: string, timeoutMs: number, maxLineBytes?: number): RemoteAllocator {
  const channel = openLineChannel(command, { timeoutMs, maxLineBytes });
  let seq = 0;
  let previous: ClusterState | null = null;
  const exchange = async (state: ClusterState, id: number): Promise<string> => {
    const request = JSON.stringify({
      id, capacity: state.capacity, demands: state.demands, weights: state.weights,
      ...(state.tasks ? { tasks: state.tasks } : {}), ...(state.offsets ? { offsets: state.offsets } : {}),
    });
    try {
      return await channel.exchange(request);
    } catch (e) {
      // a late second answer is the previous request's finding; not shrunk (shrinking reruns inputs
      // one at a time, and the late line's timing is not the input's)
      if (e instanceof TransportFault && e.stale && previous) throw new AllocatorFault(`${e.message} (after answering the input below)`, previous, true);
      if (e instanceof TransportFault) throw new AllocatorFault(e.hang ? `${e.message}, twice (killed and restarted)` : e.message, state, e.hang);
      throw e;
    }
  };
  return {
    async allocate(state) {
      const id = ++seq;
      let line: string;
      try {
        line = await exchange(state, id);
      } catch (e) {
        if (!(e instanceof AllocatorFault && e.hang && e.state === state)) throw e;
        line = await exchange(state, id); // once more, on a fresh child
      } finally {
        previous = state;
      }
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        channel.close(); // out of step with its own output: start afresh
        throw new AllocatorFault(`the command printed garbage instead of a JSON line: ${JSON.stringify(clip(line))}`, state);
      }
      if (msg && typeof msg === "object" && "id" in msg && (msg as { id: unknown }).id !== id) {
        channel.close();
        throw new AllocatorFault(`the command answered request id ${clip(JSON.stringify((msg as { id: unknown }).id))} when asked request ${id} (a stale answer)`, state);
      }
      if (msg && typeof msg === "object" && "allocation" in msg) return (msg as { allocation: Allocation }).allocation;
      if (msg && typeof msg === "object" && "error" in msg) throw new AllocatorFault(`the command answered with an error: ${clip(String((msg as { error: unknown }).error))}`, state);
      throw new AllocatorFault(`the command answered ${clip(line)}, expected {"allocation": [[...], ...]}`, state);
    },
    close: channel.close,
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
