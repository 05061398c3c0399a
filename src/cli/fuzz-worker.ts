// The worker thread behind `fairsched fuzz --allocator FILE.mjs`: loads the module, then
// answers {id, state} with {id, allocation} or {id, error}. A hang here is ended by the
// fuzzer terminating this thread (src/cli/fuzz-remote.ts).
import { parentPort, workerData } from "node:worker_threads";
import "../util/provide-node-builtins.js"; // Node's fs for the loader in this thread

const port = parentPort!;
let allocate: (state: unknown) => unknown;
try {
  const mod = await import((workerData as { href: string }).href);
  allocate = mod.default;
  if (typeof allocate !== "function") throw new Error(`its default export is ${typeof allocate}, expected the allocate function`);
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ loadError: (e as Error)?.message ?? String(e) });
  throw e;
}

/** Typed arrays and nested arrays as plain arrays (anything else as is: the fuzzer checks the shape). */
function plain(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

port.on("message", async ({ id, state }: { id: number; state: unknown }) => {
  let out: unknown;
  try {
    out = plain(await allocate(state));
  } catch (e) {
    port.postMessage({ id, error: (e as Error)?.message ?? String(e) });
    return;
  }
  try {
    port.postMessage({ id, allocation: out });
  } catch (e) {
    port.postMessage({ id, error: `returned a value that cannot be sent back (${(e as Error).message})` });
  }
});
