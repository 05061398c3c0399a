import { defineConfig } from "vitest/config";

// `npm run test:repro`: the lab's reproductions (paper shapes, IRFsim agreement, full trace
// replays, the Redis and Chromium files), every file named *.repro.test.ts. Full traces come
// from FAIRSCHED_TRACES (default ../shared/traces) through test/helpers/traces.ts.
export default defineConfig({
  test: {
    include: ["test/**/*.repro.test.ts"],
    setupFiles: ["test/helpers/suite-seed.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
