// The IRFsim converter: IRFsim's generated queue and job files (format as its readers parse them,
// docs/reproduction-bopf.md) to our Workload. Exact on hand-written files, a round trip
// property over random files, and every malformed record an InputError naming file:line.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.js";
import { convertIrfsim, type IrfsimConvertOptions } from "../../src/workloads/irfsim.js";
import { validateWorkload } from "../../src/sim/validate-workload.js";
import { caught } from "../helpers/caught.js";
import { FUZZ } from "../helpers/hostile.js";

// As IRFsim's GenInput writes them (1 LQ of 3 bursts, 1 TQ), 2 resources.
const QUEUES = `# 0
bursty0 1 50.0 
3
27.0 150.0 0.63 0.99
27.0 150.0 0.63 0.99
20.0 100.0 0.5 0.25
# 1
batch0 0 0.0 
1.0`;

const JOBS = `# 0
2 0 50 bursty0
Map1 25.0 0.21 0.33 3000
Reducer2 2.0 0.29 0.22 500
1
Map1 Reducer2 ata
# 1
2 1 200 bursty0
Map1 25.0 0.21 0.33 3000
Reducer2 2.0 0.29 0.22 500
1
Map1 Reducer2 ata
# 100000
3 100000 17 batch0
Reducer3 4.0 1.5 2.0 40
Map1 12.0 1.0 2.5 400
Map2 7.0 0.5 1.0 80
2
Map2 Reducer3 ata
Map1 Reducer3 ata`;

const OPTS: IrfsimConvertOptions = { capacity: 1000, tqArrival: "zero" };
const q = (text: string) => ({ file: "q.txt", text });
const j = (text: string) => ({ file: "j.txt", text });

describe("convertIrfsim", () => {
  it("converts queues, bursts and DAG jobs exactly", () => {
    const { workload: w, summary } = convertIrfsim(q(QUEUES), j(JOBS), OPTS);
    validateWorkload(w);
    expect(w.resources).toEqual(["cpu", "mem"]);
    expect(w.capacity).toEqual([1000, 1000]);
    // IRFsim's queue order: batch0 starts at 0, bursty0 at 50
    expect(w.queues.map((x) => [x.name, x.kind])).toEqual([["batch0", "TQ"], ["bursty0", "LQ"]]);
    expect(w.queues[0].weight).toBe(1);
    // burst i starts at startTime + the earlier periods; volume = alpha x capacity x window
    expect(w.queues[1].bursts).toEqual([
      { start: 50, window: 27, volume: [0.63 * 1000 * 27, 0.99 * 1000 * 27] },
      { start: 200, window: 27, volume: [0.63 * 1000 * 27, 0.99 * 1000 * 27] },
      { start: 350, window: 20, volume: [0.5 * 1000 * 20, 0.25 * 1000 * 20] },
    ]);
    expect(w.jobs[0]).toEqual({
      id: "0", queue: "bursty0", arrival: 50, burst: 0, deadline: 27,
      stages: [{ tasks: 3000, demand: [0.21, 0.33], duration: 25 }, { tasks: 500, demand: [0.29, 0.22], duration: 2, parents: [0] }],
    });
    expect(w.jobs[1]).toMatchObject({ id: "1", arrival: 200, burst: 1, deadline: 27 });
    // the reducer listed first comes after both its parents; TQ arrival 'zero' ignores the 17
    expect(w.jobs[2]).toEqual({
      id: "100000", queue: "batch0", arrival: 0,
      stages: [
        { tasks: 400, demand: [1, 2.5], duration: 12 },
        { tasks: 80, demand: [0.5, 1], duration: 7 },
        { tasks: 40, demand: [1.5, 2], duration: 4, parents: [0, 1] },
      ],
    });
    expect(summary).toEqual({ lqBursts: 3, lqJobs: 2, tqJobs: 1, tasks: 7520, droppedBursts: 0, droppedJobs: 0 });
  });

  it("'trace' keeps TQ arrivals; a horizon drops later bursts and jobs", () => {
    expect(convertIrfsim(q(QUEUES), j(JOBS), { ...OPTS, tqArrival: "trace" }).workload.jobs[2].arrival).toBe(17);
    const { workload: w, summary } = convertIrfsim(q(QUEUES), j(JOBS), { ...OPTS, horizon: 200 });
    expect(w.queues[1].bursts!.map((b) => b.start)).toEqual([50]);
    expect(w.jobs.map((x) => x.id)).toEqual(["0", "100000"]);
    expect(summary).toMatchObject({ droppedBursts: 2, droppedJobs: 1 });
  });

  it("queues come out in IRFsim's order (JobQueueList.sortJobQueues): by start time, an LQ before a TQ on a tie, then by name", () => {
    const text = ["m 1 10\n1\n27 150 0.1 0.1", "b 0 5\n1", "a 0 0\n1", "z 1 0\n1\n27 150 0.1 0.1", "y 1 0\n1\n27 150 0.1 0.1"].join("\n");
    const { workload: w } = convertIrfsim(q(text), j("1 7 0 a\nS 1 1 1 4\n0"), OPTS);
    expect(w.queues.map((x) => x.name)).toEqual(["y", "z", "a", "b", "m"]);
  });

  const bad: Array<[string, string, string, string]> = [
    // [name, queue text, job text, expected message start]
    ["queue header fields", "bursty0 1\n3", JOBS, "q.txt:1: a queue header"],
    ["queue type", "x 2 0.0\n1", JOBS, "q.txt:1: queue type must be 0"],
    ["burst count beyond the file", "b 1 0\n5\n27 150 0.5 0.5", JOBS, "q.txt:2: 5 bursts announced"],
    ["NaN alpha", "b 1 0\n1\n27 150 NaN 0.5\nbatch0 0 0\n1", JOBS, "q.txt:3: alpha[0] must be a number"],
    ["alpha above 1", "bursty0 1 0\n1\n27 150 1.5 0.5\nbatch0 0 0\n1", JOBS, "q.txt:3: alpha[0] is a fraction"],
    ["zero weight", "batch0 0 0\n0", JOBS, "q.txt:2: weight must be a finite number > 0"],
    ["duplicate queue", "batch0 0 0\n1\nbatch0 0 0\n1", JOBS, "q.txt:3: duplicate queue"],
    ["unknown queue", QUEUES, "1 7 0 nowhere\nS 1 1 1 1\n0", "j.txt:1: unknown queue 'nowhere'"],
    ["zero tasks", QUEUES, "1 7 0 batch0\nS 1 1 1 0\n0", "j.txt:2: numTasks must be a whole number >= 1"],
    ["dimension mismatch", QUEUES, "1 7 0 batch0\nS 1 1 1 1 4\n0", "j.txt:2: 3 resources, but earlier lines have 2"],
    ["negative duration", QUEUES, "1 7 0 batch0\nS -1 1 1 4\n0", "j.txt:2: task duration must be a finite number >= 0"],
    ["stage arrival", QUEUES, "1 7 0 batch0\nS 1 1 1 @5 4\n0", "j.txt:2: stage arrival times"],
    ["duplicate stage", QUEUES, "2 7 0 batch0\nS 1 1 1 4\nS 1 1 1 4\n0", "j.txt:3: duplicate stage 'S'"],
    ["unknown edge stage", QUEUES, "1 7 0 batch0\nS 1 1 1 4\n1\nS T ata", "j.txt:4: unknown stage 'T'"],
    ["cycle", QUEUES, "2 7 0 batch0\nS 1 1 1 4\nT 1 1 1 4\n2\nS T ata\nT S ata", "j.txt:4: the stages of job 7 form a cycle"],
    ["duplicate job id", QUEUES, "1 7 0 batch0\nS 1 1 1 4\n0\n1 7 0 batch0\nS 1 1 1 4\n0", "j.txt:4: duplicate jobId 7"],
    ["truncated job", QUEUES, "2 7 0 batch0\nS 1 1 1 4", "j.txt:2: unexpected end of file, expected stage 1 of job 7"],
    ["demand above capacity", QUEUES, "1 7 0 batch0\nS 1 1001 1 4\n0", "j.txt:1: job 7: a task demands 1001"],
    ["empty job file", QUEUES, "# nothing\n", "j.txt: no jobs"],
  ];
  it.each(bad)("%s is an InputError naming the file and line", (_, qt, jt, msg) => {
    const e = caught(() => convertIrfsim(q(qt), j(jt), OPTS));
    expect(e).toBeInstanceOf(InputError);
    expect(e.message.startsWith(msg), e.message).toBe(true);
  });

  it("bad options name the option", () => {
    for (const [o, field] of [
      [{ ...OPTS, capacity: NaN }, "options.capacity"],
      [{ ...OPTS, tqArrival: "later" }, "options.tqArrival"],
      [{ ...OPTS, horizon: -1 }, "options.horizon"],
      [{ ...OPTS, resources: ["cpu"] }, "options.resources"],
      [null, "options"],
    ] as Array<[IrfsimConvertOptions, string]>) {
      const e = caught(() => convertIrfsim(q(QUEUES), j(JOBS), o));
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).field).toBe(field);
    }
  });

  // Writes random jobs as IRFsim's GenInput does and reads them back.
  const stage = fc.record({
    duration: fc.integer({ min: 1, max: 600 }),
    demand: fc.array(fc.integer({ min: 0, max: 500 }).map((x) => x / 100), { minLength: 2, maxLength: 2 }),
    tasks: fc.integer({ min: 1, max: 5000 }),
  });
  const job = fc.record({
    stages: fc.array(stage, { minLength: 1, maxLength: 6 }),
    // edges as (child, parent) offsets: a parent is an earlier stage in generation order
    edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }),
    arrival: fc.integer({ min: 0, max: 5000 }),
    lq: fc.boolean(),
  });
  it("round trip: random files written as IRFsim writes them convert to the same jobs", () => {
    fc.assert(
      fc.property(fc.array(job, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 1 }), (jobs, reverse) => {
        let text = "";
        const expected: Array<{ stages: Array<{ duration: number; demand: number[]; tasks: number; parents: number[] }> }> = [];
        jobs.forEach((jb, id) => {
          const n = jb.stages.length;
          const parents = jb.stages.map(() => new Set<number>());
          for (const [a, b] of jb.edges) {
            const child = a % n, parent = n > 1 ? b % child || 0 : 0;
            if (child > 0 && parent < child) parents[child].add(parent);
          }
          const names = jb.stages.map((_, s) => `S${s}`);
          // file order: generation order or reversed (a valid topological order is recovered either way)
          const order = reverse ? [...names.keys()].reverse() : [...names.keys()];
          text += `# ${id}\n${n} ${id} ${jb.arrival} ${jb.lq ? "bursty0" : "batch0"}\n`;
          for (const s of order) text += `${names[s]} ${jb.stages[s].duration}.0 ${jb.stages[s].demand.join(" ")} ${jb.stages[s].tasks}\n`;
          const edges = parents.flatMap((ps, c) => [...ps].map((p) => `${names[p]} ${names[c]} ata`));
          text += `${edges.length}${edges.map((e) => "\n" + e).join("")}\n`;
          expected.push({ stages: jb.stages.map((s, i) => ({ ...s, parents: [...parents[i]].sort((x, y) => x - y) })) });
        });
        const { workload: w } = convertIrfsim(q(QUEUES), j(text), { ...OPTS, tqArrival: "trace" });
        validateWorkload(w);
        expect(w.jobs.length).toBe(jobs.length);
        w.jobs.forEach((got, id) => {
          expect(got.arrival).toBe(jobs[id].arrival);
          // same stages up to the topological order: compare as (stage, parent stages) multisets
          const key = (s: { duration: number | number[]; demand: number[]; tasks: number }, ps: string[]) => `${String(s.duration)}|${s.demand.join(",")}|${s.tasks}|${ps.sort().join(";")}`;
          const gotKeys = got.stages.map((s) => key(s, (s.parents ?? []).map((p) => `${String(got.stages[p].duration)}/${got.stages[p].tasks}/${got.stages[p].demand.join(",")}`)));
          const exp = expected[id].stages;
          const expKeys = exp.map((s) => key(s, s.parents.map((p) => `${exp[p].duration}/${exp[p].tasks}/${exp[p].demand.join(",")}`)));
          expect(gotKeys.sort()).toEqual(expKeys.sort());
          got.stages.forEach((s, si) => (s.parents ?? []).forEach((p) => expect(p).toBeLessThan(si)));
        });
      }),
      FUZZ,
    );
  });
});
