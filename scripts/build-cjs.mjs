// CommonJS builds of the Node entry points, for `require("fairsched")` on every Node from 20.0
// (Node before 20.19/22.12 cannot require() an ES module). One esbuild bundle per entry of this
// package's own code; dependencies stay external (each has a CommonJS build). `import.meta.url`
// becomes this file's URL, so the default .wasm (../../build/fairsched.wasm) resolves from dist/cjs/.
import { build } from "esbuild";

// From the tsc output (dist/), so the package.json "sideEffects" paths apply as written.
const entries = { index: "dist/node/index.js", scenarios: "dist/node/scenarios.js", testkit: "dist/node/testkit.js", bullmq: "dist/node/bullmq.js" };
await build({
  entryPoints: entries,
  outdir: "dist/cjs",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.0",
  packages: "external",
  define: { "import.meta.url": "__fairschedModuleUrl" },
  banner: { js: 'var __fairschedModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
});
