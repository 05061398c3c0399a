import { defineConfig } from "vitest/config";

// `npm test`: the library's unit and property suite. It needs nothing beside the repository
// (trace tests read the samples in test/fixtures/traces/). The lab's reproductions, named
// *.repro.test.ts, run under vitest.repro.config.ts (`npm run test:repro`).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "test/**/*.repro.test.ts"],
    // one fixed fast-check seed unless FAIRSCHED_FC_SEED says otherwise
    setupFiles: ["test/helpers/suite-seed.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
