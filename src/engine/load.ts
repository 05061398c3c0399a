// Loading the engine. The core has no Node-only imports and no top-level `import.meta.url` use:
// in Node the default .wasm is read through the file system the Node entry points provide
// (src/util/node-builtins.ts), elsewhere it is fetched; the default location is resolved only
// when it is needed, so IIFE bundles load. Any host can hand over the bytes, a compiled module or
// a URL instead, per call (options.wasm) or once for the default (initWasm, as resvg-wasm and
// esbuild-wasm do).
import { instantiate, instantiateSync } from "@assemblyscript/loader";
import type { BackendKind } from "../kernels/backend.js";
import { Engine } from "./engine.js";
import { InputError, describeValue } from "../errors.js";
import { JsBackend } from "./js-backend.js";
import { REQUIRED_EXPORTS, WasmBackend, type FairschedExports } from "./wasm-backend.js";
import { nodeBuiltin } from "../util/node-builtins.js";
import type { WasmBytes } from "./host-types.js";

export type { WasmBytes } from "./host-types.js";
export type WasmSource = WasmBytes | WebAssembly.Module | URL | string;

export interface LoadOptions {
  /** 'wasm' (default) or 'js' (the pure-TypeScript reference backend). */
  backend?: BackendKind;
  /** The WASM: bytes, a compiled module, or a URL/path. Default: the one given to initWasm, else the package's build/fairsched.wasm. */
  wasm?: WasmSource;
}

/**
 * Where the package's own .wasm lives (src/engine and dist/engine are at the same depth), resolved
 * on call: a bundle without `import.meta.url` (an IIFE) gets an InputError saying what to pass.
 */
export function defaultWasmUrl(): URL {
  try {
    return new URL("../../build/fairsched.wasm", import.meta.url);
  } catch {
    throw new InputError("options.wasm", "the default .wasm location is unknown in this bundle (no import.meta.url); call initWasm(bytes | WebAssembly.Module | URL) first or pass options.wasm (docs/bundlers.md)");
  }
}

let defaultModule: WebAssembly.Module | null = null;
let defaultModulePromise: Promise<WebAssembly.Module> | null = null;

interface NodeFs {
  readFileSync(path: URL): Uint8Array;
  promises: { readFile(path: URL): Promise<Uint8Array> };
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
  let bytes: WasmBytes;
  if (src === undefined || src instanceof URL || typeof src === "string") {
    const url = toUrl(src ?? defaultWasmUrl());
    const fs = nodeBuiltin<NodeFs>("node:fs");
    if (url.protocol !== "file:" || !fs) {
      throw new InputError("options.wasm", "loadEngineSync cannot fetch a URL here; pass the bytes or a WebAssembly.Module, or use loadEngine()");
    }
    bytes = fs.readFileSync(url);
  } else {
    bytes = src;
  }
  let mod: WebAssembly.Module;
  try {
    mod = new WebAssembly.Module(bytes as BufferSource);
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
    defaultModulePromise ??= Promise.resolve()
      .then(() => fetchAndCompile(defaultWasmUrl()))
      .then((m) => (defaultModule = m))
      .catch((e: unknown) => {
        defaultModulePromise = null; // a later call (after initWasm, or once the file exists) retries
        throw e;
      });
    return defaultModulePromise;
  }
  if (src instanceof URL || typeof src === "string") return fetchAndCompile(toUrl(src));
  return WebAssembly.compile(src as BufferSource).catch((e: unknown) => {
    throw badModule(e);
  });
}

async function fetchAndCompile(url: URL): Promise<WebAssembly.Module> {
  const fs = nodeBuiltin<NodeFs>("node:fs");
  if (url.protocol === "file:" && fs) return WebAssembly.compile((await fs.promises.readFile(url)) as BufferSource);
  if (url.protocol === "file:" && typeof globalThis.location === "undefined") {
    throw new InputError("options.wasm", `cannot read ${url.href} here (no file system handed over): import fairsched through its "node" export condition, or pass the bytes`);
  }
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

/**
 * Sets the module every later loadEngine()/loadEngineSync() without options.wasm uses, from bytes,
 * a compiled WebAssembly.Module, or a URL/path (fetched, or read from disk in Node). For bundles
 * that do not ship the .wasm beside the code (docs/bundlers.md). Returns the compiled module.
 */
export async function initWasm(source: WasmSource): Promise<WebAssembly.Module> {
  checkOptions({ wasm: source });
  if (source === undefined) throw new InputError("source", "expected bytes, a WebAssembly.Module, a URL or a path, got undefined");
  const mod = await compileAsync(source);
  defaultModule = mod;
  defaultModulePromise = null;
  return mod;
}

/** initWasm for bytes or a WebAssembly.Module (or a file path/URL in Node), synchronously. */
export function initWasmSync(source: WasmSource): WebAssembly.Module {
  checkOptions({ wasm: source });
  if (source === undefined) throw new InputError("source", "expected bytes, a WebAssembly.Module, a URL or a path, got undefined");
  const mod = compileSync(source);
  defaultModule = mod;
  defaultModulePromise = null;
  return mod;
}
