// Loading the engine. The core has no Node-only imports: in Node the default .wasm is read
// through process.getBuiltinModule (no static `node:` import), in browsers it is fetched;
// any host can pass the bytes or a compiled module itself.
import { instantiate, instantiateSync } from "@assemblyscript/loader";
import type { BackendKind } from "../kernels/backend.js";
import { Engine } from "./engine.js";
import { InputError, describeValue } from "../errors.js";
import { JsBackend } from "./js-backend.js";
import { REQUIRED_EXPORTS, WasmBackend, type FairschedExports } from "./wasm-backend.js";

export type WasmSource = BufferSource | WebAssembly.Module | URL | string;

export interface LoadOptions {
  /** 'wasm' (default) or 'js' (the pure-TypeScript reference backend). */
  backend?: BackendKind;
  /** The WASM: bytes, a compiled module, or a URL/path. Default: the package's build/fairsched.wasm. */
  wasm?: WasmSource;
}

/** Where the package's own .wasm lives (src/engine and dist/engine are at the same depth). */
export const defaultWasmUrl: URL = new URL("../../build/fairsched.wasm", import.meta.url);

let defaultModule: WebAssembly.Module | null = null;
let defaultModulePromise: Promise<WebAssembly.Module> | null = null;

interface NodeFs {
  readFileSync(path: URL | string): Uint8Array<ArrayBuffer>;
  promises: { readFile(path: URL | string): Promise<Uint8Array<ArrayBuffer>> };
}

function nodeFs(): NodeFs | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.("node:fs");
  return (fs as NodeFs | undefined) ?? null;
}

function toUrl(src: URL | string): URL {
  if (src instanceof URL) return src;
  try {
    return new URL(src);
  } catch {
    // a relative or absolute file path
    const base = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.();
    if (base) return new URL(src, `file://${base.endsWith("/") ? base : base + "/"}`);
    return new URL(src, globalThis.location?.href);
  }
}

function checkBackend(b: unknown): BackendKind {
  if (b === undefined || b === "wasm") return "wasm";
  if (b === "js") return "js";
  throw new InputError("options.backend", `must be 'wasm' or 'js', got ${describeValue(b)}`);
}

function checkOptions(options: unknown): LoadOptions {
  if (options === null || typeof options !== "object") throw new InputError("options", `expected {backend?, wasm?}, got ${describeValue(options)}`);
  const w = (options as LoadOptions).wasm;
  if (w !== undefined && !(w instanceof WebAssembly.Module || w instanceof URL || typeof w === "string" || w instanceof ArrayBuffer || ArrayBuffer.isView(w))) {
    throw new InputError("options.wasm", `expected bytes, a WebAssembly.Module, a URL or a path, got ${describeValue(w)}`);
  }
  return options as LoadOptions;
}

/** Compile or link failures of a caller's module as the InputError naming options.wasm. */
function badModule(e: unknown): InputError {
  return new InputError("options.wasm", `is not a fairsched WASM module (${e instanceof Error ? e.message : String(e)})`);
}

function backendOf(exports: Record<string, unknown>): WasmBackend {
  if (!(exports.memory instanceof WebAssembly.Memory)) throw badModule(new Error("no exported memory"));
  for (const name of REQUIRED_EXPORTS) if (typeof exports[name] !== "function") throw badModule(new Error(`no export ${name}()`));
  return new WasmBackend(exports as unknown as FairschedExports);
}

function compileSync(src: WasmSource | undefined): WebAssembly.Module {
  if (src instanceof WebAssembly.Module) return src;
  if (src === undefined && defaultModule) return defaultModule;
  let bytes: BufferSource;
  if (src === undefined || src instanceof URL || typeof src === "string") {
    const url = toUrl(src ?? defaultWasmUrl);
    const fs = nodeFs();
    if (url.protocol !== "file:" || !fs) {
      throw new InputError("options.wasm", "loadEngineSync cannot fetch a URL here; pass the bytes or a WebAssembly.Module, or use loadEngine()");
    }
    bytes = fs.readFileSync(url);
  } else {
    bytes = src;
  }
  let mod: WebAssembly.Module;
  try {
    mod = new WebAssembly.Module(bytes);
  } catch (e) {
    throw badModule(e);
  }
  if (src === undefined) defaultModule = mod;
  return mod;
}

async function compileAsync(src: WasmSource | undefined): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  if (src === undefined) {
    if (defaultModule) return defaultModule;
    defaultModulePromise ??= fetchAndCompile(defaultWasmUrl).then((m) => (defaultModule = m));
    return defaultModulePromise;
  }
  if (src instanceof URL || typeof src === "string") return fetchAndCompile(toUrl(src));
  return WebAssembly.compile(src).catch((e: unknown) => {
    throw badModule(e);
  });
}

async function fetchAndCompile(url: URL): Promise<WebAssembly.Module> {
  const fs = nodeFs();
  if (url.protocol === "file:" && fs) return WebAssembly.compile(await fs.promises.readFile(url));
  const res = await fetch(url);
  if (!res.ok) throw new InputError("options.wasm", `fetching ${url.href} failed: HTTP ${res.status}`);
  if (typeof WebAssembly.compileStreaming === "function" && res.headers.get("content-type") === "application/wasm") {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

function wasmEngine(mod: WebAssembly.Module): Engine {
  let exports: Record<string, unknown>;
  try {
    exports = instantiateSync<FairschedExports & Record<string, unknown>>(mod, {}).exports;
  } catch (e) {
    throw badModule(e);
  }
  return new Engine(backendOf(exports));
}

/** Loads an engine synchronously (Node, workers). In a browser's main thread prefer loadEngine. */
export function loadEngineSync(options: LoadOptions = {}): Engine {
  checkOptions(options);
  if (checkBackend(options.backend) === "js") return new Engine(new JsBackend());
  return wasmEngine(compileSync(options.wasm));
}

/** Loads an engine: compiles the WASM once per source and caches the default module. */
export async function loadEngine(options: LoadOptions = {}): Promise<Engine> {
  checkOptions(options);
  if (checkBackend(options.backend) === "js") return new Engine(new JsBackend());
  const mod = await compileAsync(options.wasm);
  let exports: Record<string, unknown>;
  try {
    exports = (await instantiate<FairschedExports & Record<string, unknown>>(mod, {})).exports;
  } catch (e) {
    throw badModule(e);
  }
  return new Engine(backendOf(exports));
}
