// The host types the public API names, declared here so that TypeScript consumers need neither
// lib "DOM" nor @types/node: WASM bytes are any ArrayBuffer or view (lib.es5), and the two host
// interfaces are declared empty or minimal; they merge with the full ones where those exist.
export type WasmBytes = ArrayBuffer | ArrayBufferView;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace WebAssembly {
    interface Module {}
    interface Memory {}
  }
  interface URL {
    href: string;
  }
}
