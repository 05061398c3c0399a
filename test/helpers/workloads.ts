// Small random workloads for simulator properties.
import fc from "fast-check";
import type { Workload } from "../../src/policy/model.js";

export function workloadArb(): fc.Arbitrary<Workload> {
  return fc.integer({ min: 1, max: 3 }).chain((k) =>
    fc.record({
      capacity: fc.array(fc.integer({ min: 4, max: 20 }), { minLength: k, maxLength: k }),
      queues: fc.integer({ min: 1, max: 4 }),
      jobs: fc.array(
        fc.record({
          queue: fc.nat(),
          arrival: fc.integer({ min: 0, max: 50 }),
          stages: fc.array(
            fc.record({
              tasks: fc.integer({ min: 1, max: 6 }),
              demand: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: k, maxLength: k }),
              duration: fc.integer({ min: 0, max: 20 }),
              chain: fc.boolean(),
            }),
            { minLength: 1, maxLength: 3 },
          ),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    }).map(({ capacity, queues, jobs }) => ({
      name: "random", resources: capacity.map((_, r) => `r${r}`), capacity, params: {}, seed: 1,
      queues: Array.from({ length: queues }, (_, i) => ({ name: `q${i}`, kind: i === 0 ? "LQ" as const : "TQ" as const })),
      jobs: jobs.map((j, i) => ({
        id: `j${i}`, queue: `q${j.queue % queues}`, arrival: j.arrival,
        stages: j.stages.map((s, si) => ({ tasks: s.tasks, demand: s.demand, duration: s.duration, ...(si > 0 && s.chain ? { parents: [si - 1] } : {}) })),
      })),
    })),
  );
}
