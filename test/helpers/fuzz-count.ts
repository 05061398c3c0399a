// Setup file of `npm run fuzz` (scripts/fuzz.mjs, scripts/vitest.fuzz.config.ts): every
// fast-check property reports how many inputs it tried into FUZZ_COUNT_FILE (one JSON line per
// property), and the file's tests share FUZZ_FILE_MS (the file's share of FUZZ_BUDGET_S): before
// each test, what is left of it is split evenly over the tests not yet run, and the test's
// properties stop there (an interrupted property is not a failure, its runs so far count). The
// split is by test, not by `fc.assert` in the source, so properties made in a loop share the
// budget too, and a test that overran leaves less to the ones after it. A failure still throws
// fast-check's usual report (with seed and path to replay it).
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { beforeEach } from "vitest";

const out = process.env.FUZZ_COUNT_FILE;
const fileMs = Number(process.env.FUZZ_FILE_MS ?? 0);
const startedAt = Date.now();

function record(details: fc.RunDetails<unknown>): void {
  if (out) {
    appendFileSync(out, JSON.stringify({ runs: details.numRuns, skips: details.numSkips, failed: details.failed, interrupted: details.interrupted, seed: details.seed }) + "\n");
  }
}

interface TaskNode { type: string; mode?: string; result?: { state?: string }; tasks?: TaskNode[] }

/** Tests of the file that have not finished yet (this one included). */
function testsLeft(node: TaskNode): number {
  if (node.tasks) return node.tasks.reduce((a, t) => a + testsLeft(t), 0);
  if (node.type !== "test" || node.mode === "skip" || node.mode === "todo") return 0;
  const state = node.result?.state;
  return state === "pass" || state === "fail" ? 0 : 1;
}

if (out) {
  const seed = Number(process.env.FUZZ_SEED);
  const base: fc.GlobalParameters = {
    // the run's seed (printed by the runner) for every property that names none, in place of the suite's fixed one
    ...(Number.isSafeInteger(seed) ? { seed } : {}),
    // one reporter for sync and async properties (fast-check refuses both options together)
    reporter(details) {
      record(details);
      if (details.failed) {
        // the property's own error (an assertion, a TypeError) after fast-check's report
        const cause = details.errorInstance as Error | undefined;
        throw new Error(`${fc.defaultReportMessage(details)}\nCaused by: ${cause?.stack ?? String(cause)}`, { cause });
      }
    },
  };
  fc.configureGlobal(base);
  if (fileMs > 0) {
    beforeEach((ctx) => {
      const left = Math.max(1, startedAt + fileMs - Date.now());
      const tests = Math.max(1, testsLeft(ctx.task.file as unknown as TaskNode));
      fc.configureGlobal({ ...base, interruptAfterTimeLimit: Math.max(1, Math.floor(left / tests)), markInterruptAsFailure: false });
    });
  }
}
