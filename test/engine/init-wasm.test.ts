// initWasm / initWasmSync (an explicit init from bytes, a WebAssembly.Module or a URL, as
// resvg-wasm and esbuild-wasm offer) and the lazily resolved default .wasm location.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { defaultWasmUrl, initWasm, initWasmSync, loadEngine, loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import "../../src/util/provide-node-builtins.js";

const EXAMPLE = { capacity: [9, 18], demands: [[9, 36], [27, 9]] };
const url = defaultWasmUrl();
const bytes = readFileSync(url);

describe("initWasm", () => {
  it("defaultWasmUrl() is the package's build/fairsched.wasm", () => {
    expect(url.protocol).toBe("file:");
    expect(url.pathname.endsWith("/build/fairsched.wasm")).toBe(true);
  });

  it("takes bytes, a view on them, a WebAssembly.Module, a URL or a path; later loads use it", async () => {
    const sources = [bytes, new Uint8Array(bytes).buffer, new WebAssembly.Module(bytes), url, url.href, url.pathname];
    for (const src of sources) {
      const mod = await initWasm(src);
      expect(mod).toBeInstanceOf(WebAssembly.Module);
      expect(Array.from((await loadEngine()).drf(EXAMPLE).allocation)).toEqual([3, 12, 6, 2]);
      expect(Array.from(loadEngineSync().drf(EXAMPLE).allocation)).toEqual([3, 12, 6, 2]);
    }
  });

  it("initWasmSync takes bytes or a module and returns the module later loads use", () => {
    const mod = initWasmSync(bytes);
    expect(initWasmSync(mod)).toBe(mod);
    expect(Array.from(loadEngineSync().drf(EXAMPLE).allocation)).toEqual([3, 12, 6, 2]);
  });

  it("bad sources are InputErrors naming the field, and the previous default stays", async () => {
    initWasmSync(bytes);
    await expect(initWasm(new Uint8Array([0, 97, 115, 109]))).rejects.toThrow(InputError);
    await expect(initWasm(42 as never)).rejects.toThrow(/options\.wasm/);
    expect(() => initWasmSync(undefined as never)).toThrow(/source/);
    expect(() => initWasmSync(new Uint8Array(3))).toThrow(/options\.wasm.*not a fairsched WASM module/);
    // the default is still the good module
    expect(Array.from(loadEngineSync().drf(EXAMPLE).allocation)).toEqual([3, 12, 6, 2]);
  });
});
