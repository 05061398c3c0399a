// Setup file of `npm run fuzz` (scripts/fuzz.mjs, scripts/vitest.fuzz.config.ts): every
// fast-check property reports how many inputs it tried into FUZZ_COUNT_FILE (one JSON line per
// property), and stops at FUZZ_PROPERTY_MS (the per-property share of FUZZ_BUDGET_S; an
// interrupted property is not a failure, its runs so far count). A failure still throws
// fast-check's usual report (with seed and path to replay it).
import { appendFileSync } from "node:fs";
import fc from "fast-check";

const out = process.env.FUZZ_COUNT_FILE;
const limit = Number(process.env.FUZZ_PROPERTY_MS ?? 0);

function record(details: fc.RunDetails<unknown>): void {
  if (out) {
    appendFileSync(out, JSON.stringify({ runs: details.numRuns, skips: details.numSkips, failed: details.failed, interrupted: details.interrupted, seed: details.seed }) + "\n");
  }
}

if (out) {
  fc.configureGlobal({
    ...(limit > 0 ? { interruptAfterTimeLimit: limit, markInterruptAsFailure: false } : {}),
    // one reporter for sync and async properties (fast-check refuses both options together)
    reporter(details) {
      record(details);
      if (details.failed) {
        // the property's own error (an assertion, a TypeError) after fast-check's report
        const cause = details.errorInstance as Error | undefined;
        throw new Error(`${fc.defaultReportMessage(details)}\nCaused by: ${cause?.stack ?? String(cause)}`, { cause });
      }
    },
  });
}
