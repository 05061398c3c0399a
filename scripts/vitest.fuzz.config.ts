// Vitest configuration of `npm run fuzz` (scripts/fuzz.mjs): the project's, plus the setup
// file that counts inputs and applies the time budget, one worker, and a timeout the runner
// derives from the budget.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "../vitest.config.js";

export default mergeConfig(base, defineConfig({
  test: {
    setupFiles: ["test/helpers/fuzz-count.ts"],
    testTimeout: Number(process.env.FUZZ_TEST_TIMEOUT_MS ?? 3_600_000),
    maxWorkers: 1,
  },
}));
