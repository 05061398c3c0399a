// The LTRF paper's macro-benchmark (§7.1-7.2) as a queue-level workload: four queues, one
// resource (memory containers, as in the paper's single-resource evaluation):
//   facebook: 100 MapReduce jobs in the nine bins of Table 3 (maps, reduces, jobs), in a
//             random order, Poisson arrivals (mean gap `fbGap` s);
//   purdue:   five large batch jobs (WordCount, TeraSort, Grep, InvertedIndex,
//             HistogramMovies), one every 180 s, repeated `purdueRounds` times;
//   tpch:     Q1, Q9, Q12, Q17, five instances each, round robin, each launched when the
//             previous one finished: one job whose stages form that chain;
//   spark:    10 k-means and 10 ALS runs, each launched 120 s after the previous one
//             finished: one chain job, the 120 s waits as tasks that hold nothing.
// The run is cut at `horizon` (one hour, like the paper's SWIM trace window) so that all
// four queues compete for the whole run, as in the paper's Fig. 7.
// Task durations are lognormal around each stage's mean (CV `cv`); the sizes are scaled to
// a cluster of `capacity` containers. Everything is drawn from the seed.
import { Rng } from "../random/rng.js";
import type { JobSpec, StageSpec, Workload } from "../policy/model.js";

export interface MacroParams {
  capacity: number;
  /** The run is cut at this time (the paper's one-hour trace window): everyone stays busy until then. */
  horizon: number;
  /** Rounds of the five Purdue jobs (one job every 180 s). */
  purdueRounds: number;
  fbGap: number;
  purdueStart: number;
  tpchStart: number;
  sparkStart: number;
  cv: number;
}

export const MACRO_DEFAULTS: MacroParams = { capacity: 100, horizon: 3600, purdueRounds: 4, fbGap: 36, purdueStart: 24, tpchStart: 28, sparkStart: 28, cv: 0.3 };

/** Table 3: [job type, maps, reduces, jobs]. */
export const FACEBOOK_BINS: ReadonlyArray<readonly [string, number, number, number]> = [
  ["rankings selection", 1, 0, 38],
  ["grep search", 2, 0, 18],
  ["uservisits aggregation", 10, 2, 14],
  ["rankings selection", 50, 0, 10],
  ["uservisits aggregation", 100, 10, 6],
  ["rankings selection", 200, 0, 6],
  ["grep search", 400, 0, 4],
  ["rankings-uservisits join", 400, 30, 2],
  ["grep search", 800, 60, 2],
];

export function macroWorkload(p: MacroParams, seed: number): Workload {
  const rng = new Rng(seed);
  const dur = (mean: number, n: number) => Array.from({ length: n }, () => round(mean * lognormalUnit(rng, p.cv)));
  const stage = (tasks: number, mean: number, parents?: number[], size = 1): StageSpec => ({
    tasks, demand: [size], duration: dur(mean, tasks), ...(parents ? { parents } : {}),
  });
  const jobs: JobSpec[] = [];

  // facebook: Table 3 bins in random order
  const fb: Array<[number, number]> = [];
  for (const [, maps, reduces, count] of FACEBOOK_BINS) for (let j = 0; j < count; j++) fb.push([maps, reduces]);
  rng.shuffle(fb);
  let t = 0;
  fb.forEach(([maps, reduces], j) => {
    const stages = [stage(maps, 20)];
    if (reduces > 0) stages.push(stage(reduces, 40, [0]));
    jobs.push({ id: `fb-${j}`, queue: "facebook", arrival: round(t), stages });
    t += rng.exponential(p.fbGap);
  });

  // purdue: five large batch jobs, 3 minutes apart
  const purdue: Array<[string, number, number, number, number]> = [
    ["wordcount", 320, 35, 30, 60], ["terasort", 320, 25, 30, 90], ["grep", 320, 15, 5, 20],
    ["invertedindex", 320, 40, 30, 70], ["histogrammovies", 320, 20, 5, 20],
  ];
  for (let round = 0; round < p.purdueRounds; round++) {
    purdue.forEach(([name, maps, mapDur, reduces, redDur], j) => {
      const at = p.purdueStart + 180 * (round * purdue.length + j);
      jobs.push({ id: `purdue-${name}-${round}`, queue: "purdue", arrival: at, stages: [stage(maps, mapDur), stage(reduces, redDur, [0])] });
    });
  }

  // tpch: a chain of 20 queries (stage widths and task means per query)
  const queries: Record<string, Array<[number, number]>> = {
    Q1: [[80, 20], [10, 30]],
    Q9: [[120, 20], [60, 25], [40, 25], [10, 30]],
    Q12: [[80, 20], [40, 25], [10, 30]],
    Q17: [[80, 20], [40, 25], [10, 30]],
  };
  const tpch: StageSpec[] = [];
  for (let inst = 0; inst < 5; inst++) {
    for (const q of ["Q1", "Q9", "Q12", "Q17"]) {
      for (const [tasks, mean] of queries[q]) tpch.push(stage(tasks, mean, tpch.length ? [tpch.length - 1] : undefined));
    }
  }
  jobs.push({ id: "tpch", queue: "tpch", arrival: p.tpchStart, stages: tpch });

  // spark: k-means and ALS alternating, 10 iterations each, 120 s think time between runs
  const spark: StageSpec[] = [];
  for (let run = 0; run < 20; run++) {
    const [tasks, mean] = run % 2 === 0 ? [60, 10] : [50, 15];
    if (run > 0) spark.push({ tasks: 1, demand: [0], duration: 120, parents: [spark.length - 1] });
    for (let it = 0; it < 10; it++) spark.push(stage(tasks, mean, spark.length ? [spark.length - 1] : undefined));
  }
  jobs.push({ id: "spark", queue: "spark", arrival: p.sparkStart, stages: spark });

  return {
    name: "ltrf-macro",
    resources: ["memory"],
    capacity: [p.capacity],
    queues: ["facebook", "purdue", "tpch", "spark"].map((name) => ({ name, kind: "TQ" as const, weight: 1 })),
    jobs,
    params: { ...p },
    seed,
  };
}

/** Lognormal with mean 1 and coefficient of variation cv. */
function lognormalUnit(rng: Rng, cv: number): number {
  if (cv <= 0) return 1;
  const s2 = Math.log(1 + cv * cv);
  return rng.lognormal(-s2 / 2, Math.sqrt(s2));
}

function round(x: number): number {
  return Math.max(0.001, Math.round(x * 1000) / 1000);
}
