// Node built-ins for code that must also load in browsers, so no static `node:` import here.
// The package's Node entry points (src/node/, the "node" export condition) hand the modules over
// when they load (src/util/provide-node-builtins.ts); this works on every Node from 20.0, Deno and
// Bun. process.getBuiltinModule (Node >= 20.16) is only a fallback for other routes, such as a
// bundle that skipped the Node entry.

export type NodeBuiltinId = "node:fs" | "node:path" | "node:zlib" | "node:readline";

const provided = new Map<NodeBuiltinId, unknown>();

/** Called once by the Node entry points with the statically imported modules. */
export function provideNodeBuiltins(modules: Partial<Record<NodeBuiltinId, unknown>>): void {
  for (const [id, m] of Object.entries(modules)) if (m) provided.set(id as NodeBuiltinId, m);
}

/** The built-in, or null outside Node-like hosts. */
export function nodeBuiltin<T>(id: NodeBuiltinId): T | null {
  const m = provided.get(id);
  if (m) return m as T;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const viaProcess = typeof proc?.getBuiltinModule === "function" ? proc.getBuiltinModule(id) : undefined;
  return (viaProcess as T | undefined) ?? null;
}
