#!/usr/bin/env node
// `npm run fuzz`: every fuzz file (test/**/fuzz.test.ts), stateful harness
// (test/**/stateful.test.ts) and equivalence property (test/**/equivalence.test.ts) with many
// more runs than the test suite, a time budget and a fresh seed (the suite's is fixed), for use
// before a release. Prints how many inputs were tried and the failures found; exits 1 on any.
//
//   FUZZ_RUNS      runs per property (the suite's default is 300); default 5000
//   FUZZ_BUDGET_S  total time budget in seconds, shared out evenly over the files and within a
//                  file over the tests not yet run (a test's properties stop at its share); default 600
//   FUZZ_SEED      fast-check seed; default a fresh one, printed so a failure can be replayed
//   FUZZ_FILTER    only files whose name contains this text
//
// Files run one at a time in one worker (the machine is shared). A failing property prints
// fast-check's counterexample with its seed and replay path.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const runs = Number(process.env.FUZZ_RUNS ?? 5000);
const budgetS = Number(process.env.FUZZ_BUDGET_S ?? 600);
const seed = Number(process.env.FUZZ_SEED ?? (Date.now() % 2 ** 31));
const filter = process.env.FUZZ_FILTER ?? "";
if (!(runs >= 1) || !(budgetS > 0) || !Number.isInteger(seed)) {
  console.error("FUZZ_RUNS must be >= 1, FUZZ_BUDGET_S > 0, FUZZ_SEED an integer");
  process.exit(2);
}

const files = readdirSync(join(root, "test"), { recursive: true })
  .map((f) => String(f).split("\\").join("/"))
  .filter((f) => /(^|\/)(fuzz|stateful|equivalence)\.test\.ts$/.test(f) && f.includes(filter))
  .sort()
  .map((f) => join("test", f));
if (files.length === 0) {
  console.error(`no fuzz files match '${filter}'`);
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), "fairsched-fuzz-count-"));
const t0 = Date.now();
const rows = [];
console.log(`fuzz: ${files.length} files, FUZZ_RUNS=${runs}, FUZZ_BUDGET_S=${budgetS}, FUZZ_SEED=${seed}`);
for (let i = 0; i < files.length; i++) {
  const file = files[i];
  const left = Math.max(1, budgetS - (Date.now() - t0) / 1000);
  const fileBudgetS = left / (files.length - i);
  const countFile = join(tmp, `${i}.jsonl`);
  const started = Date.now();
  const r = spawnSync("npx", ["vitest", "run", "--config", "scripts/vitest.fuzz.config.ts", file], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      FUZZ_RUNS: String(runs),
      FUZZ_SEED: String(seed),
      FUZZ_COUNT_FILE: countFile,
      FUZZ_FILE_MS: String(Math.floor(fileBudgetS * 1000)),
      FUZZ_TEST_TIMEOUT_MS: String(Math.ceil(fileBudgetS * 1000 * 2 + 120_000)),
    },
    maxBuffer: 256 * 1024 * 1024,
  });
  const reports = existsSync(countFile) ? readFileSync(countFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  const inputs = reports.reduce((a, x) => a + x.runs, 0);
  const failedProps = reports.filter((x) => x.failed).length;
  const interrupted = reports.filter((x) => x.interrupted).length;
  const ok = r.status === 0;
  rows.push({ file, properties: reports.length, inputs, interrupted, failed: failedProps, ok, seconds: (Date.now() - started) / 1000 });
  console.log(`${ok ? "ok  " : "FAIL"} ${file}: ${reports.length} properties, ${inputs} inputs${interrupted ? ` (${interrupted} stopped at the time budget)` : ""}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) process.stdout.write((r.stdout ?? "") + (r.stderr ?? ""));
}
rmSync(tmp, { recursive: true, force: true });

const total = rows.reduce((a, x) => a + x.inputs, 0);
const props = rows.reduce((a, x) => a + x.properties, 0);
const failures = rows.filter((x) => !x.ok).length;
console.log(`fuzz: ${total} inputs over ${props} properties in ${files.length} files, ${((Date.now() - t0) / 1000).toFixed(0)} s; ${failures} failing file(s)${failures ? "" : ", 0 failures"} (FUZZ_SEED=${seed})`);
process.exit(failures ? 1 : 0);
