// After tsc: makes dist/*.d.ts readable by TypeScript consumers from 5.0 on, and types `fairsched/wasm`.
// - TypeScript >= 5.7 writes inferred typed arrays as `Float64Array<ArrayBuffer>`; before 5.7 the
//   typed arrays take no type argument ("Type 'Float64Array' is not generic"). The argument is
//   dropped (the type widens to the pre-5.7 one, ArrayBufferLike-backed); test/package/ checks none remain.
// - Bundlers turn `import wasmUrl from "fairsched/wasm"` into the emitted asset's URL, a string.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TYPED = /\b((?:Float32|Float64|Int8|Int16|Int32|Uint8|Uint8Clamped|Uint16|Uint32|BigInt64|BigUint64)Array)<(?:ArrayBuffer|ArrayBufferLike|SharedArrayBuffer)>/g;
for (const entry of readdirSync("dist", { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath ?? entry.path, entry.name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(TYPED, "$1");
  if (fixed !== text) writeFileSync(file, fixed);
}
writeFileSync(
  "dist/wasm.d.ts",
  `/** The URL of fairsched's .wasm as your bundler emits it (Vite: "fairsched/wasm?url"; esbuild: loader "file"; docs/bundlers.md). */\ndeclare const wasmUrl: string;\nexport default wasmUrl;\n`,
);
