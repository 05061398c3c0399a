import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // one fixed fast-check seed unless FAIRSCHED_FC_SEED says otherwise
    setupFiles: ["test/helpers/suite-seed.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
