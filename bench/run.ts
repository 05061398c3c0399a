// `npm run bench`: every registered module at every size, one tinybench measurement per
// case, then one table on stdout and bench/results.json. Options (for quick local runs):
//   --sizes 1000x6,10000x6   only these N x K
//   --only drf.kernel        only cases whose id starts with one of these (comma separated);
//                            applies to the fixed-size scenarios too (--only bopf, --only sim)
//   --no-scenarios           skip the fixed-size scenarios (BoPF overhead, simulator)
//   --rounds 3               measure every case this many times, round-robin over all cases
//                            (each round gets 1/rounds of the time budget); ratios are the
//                            median of per-round ratios
import { writeFileSync } from "node:fs";
import type { Size } from "./cases.js";
import { machineInfo } from "./machine.js";
import { combineRounds, measure, measureRuns, type Budget, type Measurement } from "./measure.js";
import { registry, scenarios } from "./registry.js";
import {
  markdownTable, ratioAt, resultKey, scalingAt, scalingPairs, scenarioRatio, scenarioTable, type Results, type ScenarioResults,
} from "./report.js";

const DEFAULT_SIZES: Size[] = [2, 6].flatMap((k) => [1e2, 1e3, 1e4, 1e5].map((n) => ({ n, k })));

/** Large sizes get few samples: the whole run has to fit in about two minutes on 2 cores. */
function budgetFor({ n }: Size): Budget {
  if (n >= 1e5) return { timeMs: 250, minSamples: 4 };
  if (n >= 1e4) return { timeMs: 150, minSamples: 8 };
  return { timeMs: 100, minSamples: 16 };
}

const DEFAULT_ROUNDS = 3;

/** A round's share of the budget: rounds together cost about what one round used to. */
function roundBudget(b: Budget, rounds: number): Budget {
  return { timeMs: Math.max(40, b.timeMs / rounds), minSamples: Math.max(2, Math.ceil(b.minSamples / rounds)) };
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const sizes = arg("--sizes")?.split(",").map((s) => {
    const [n, k] = s.split("x").map(Number);
    return { n, k };
  }) ?? DEFAULT_SIZES;
  const only = arg("--only")?.split(",");
  const modules = registry.map((m) => ({ ...m, cases: m.cases.filter((c) => !only || only.some((p) => c.id.startsWith(p))) }))
    .filter((m) => m.cases.length > 0);
  const scenarioModules = process.argv.includes("--no-scenarios") ? [] : scenarios
    .map((m) => ({ ...m, cases: m.cases.filter((c) => !only || only.some((p) => c.id.startsWith(p))) }))
    .filter((m) => m.cases.length > 0);
  const machineAtStart = machineInfo();
  const started = performance.now();
  const results: Results = new Map();
  // the first measurement of a process also warms tinybench and the engine loader; discard it
  const first = modules[0]?.cases[0];
  if (first) await measure("harness warm-up", first.prepare(sizes[0]), budgetFor(sizes[0]));
  const rounds = Math.max(1, Math.floor(Number(arg("--rounds") ?? DEFAULT_ROUNDS)));
  const perRound = new Map<string, Measurement[]>();
  for (let round = 0; round < rounds; round++) {
    for (const size of sizes) {
      const budget = roundBudget(budgetFor(size), rounds);
      for (const m of modules) {
        for (const c of m.cases) {
          const key = resultKey(c.id, size);
          const earlier = perRound.get(key) ?? [];
          const call = c.prepare(size);
          const r = await measure(`${c.id} ${size.n}x${size.k}`, call, budget, earlier[0]?.reps);
          perRound.set(key, [...earlier, r]);
          process.stderr.write(`  ${rounds > 1 ? `[${round + 1}/${rounds}] ` : ""}${c.id.padEnd(24)} N=${String(size.n).padEnd(6)} K=${size.k}  ${r.medianMs.toPrecision(4)} ms  (${r.samples} samples x ${r.reps})\n`);
        }
      }
    }
  }
  for (const [key, rs] of perRound) results.set(key, combineRounds(rs));
  const scenarioResults: ScenarioResults = new Map();
  const scenarioInfo = new Map<string, Record<string, unknown>>();
  // scenarios in rounds too: each case's runs are split over the rounds, so a case and the
  // floor it is divided by are measured close together (warm-up only in the first round)
  const calls = new Map<string, () => unknown>();
  const scenarioRounds = new Map<string, Measurement[]>();
  const scenarioRuns = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const m of scenarioModules) {
      for (const c of m.cases) {
        let call = calls.get(c.id);
        if (!call) calls.set(c.id, (call = c.prepare()));
        const r = measureRuns(call, { warmup: round === 0 ? c.runs.warmup : 0, samples: Math.max(1, Math.ceil(c.runs.samples / rounds)) });
        scenarioRounds.set(c.id, [...(scenarioRounds.get(c.id) ?? []), r]);
        scenarioRuns.set(c.id, [...(scenarioRuns.get(c.id) ?? []), ...r.runsMs]);
        if (c.info) scenarioInfo.set(c.id, c.info());
        process.stderr.write(`  ${rounds > 1 ? `[${round + 1}/${rounds}] ` : ""}${c.id.padEnd(24)} ${r.medianMs.toPrecision(4)} ms  (${r.samples} runs: ${r.runsMs.map((t) => t.toPrecision(3)).join(", ")})\n`);
      }
    }
  }
  for (const [id, rs] of scenarioRounds) scenarioResults.set(id, { ...combineRounds(rs), samples: scenarioRuns.get(id)!.length, runsMs: scenarioRuns.get(id)! } as Measurement);
  const seconds = (performance.now() - started) / 1000;
  const machine = { ...machineInfo(), loadAverageAtStart: machineAtStart.loadAverage };
  const table = markdownTable(modules, sizes, results);
  console.log(`\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.platform}/${machine.arch}, Node ${machine.node}, V8 ${machine.v8}; load average ${machine.loadAverageAtStart.join("/")} at start, ${machine.loadAverage.join("/")} at end; ${seconds.toFixed(0)} s.\n`);
  console.log(table);
  if (scenarioModules.length > 0) console.log(`\nFixed-size scenarios (median CPU time of a fixed number of runs):\n\n${scenarioTable(scenarioModules, scenarioResults)}`);
  const pairs = scalingPairs(sizes);
  const json = {
    machine,
    date: new Date().toISOString(),
    seconds: Math.round(seconds),
    sizes,
    rounds,
    budgets: sizes.map((s) => ({ ...s, ...budgetFor(s) })),
    modules: modules.map((m) => ({
      name: m.name,
      cases: m.cases.map((c) => ({
        id: c.id,
        label: c.label,
        results: sizes.flatMap((s) => {
          const r = results.get(resultKey(c.id, s));
          return r ? [{ ...s, ...r }] : [];
        }),
        scaling: pairs.map(([l, s]) => ({ k: l.k, from: s.n, to: l.n, ratio: scalingAt(results, c.id, l, s) ?? null })),
      })),
      ratios: m.ratios.map((r) => ({ ...r, values: sizes.map((s) => ({ ...s, ratio: ratioAt(results, r, s) ?? null })) })),
    })),
    scenarios: scenarioModules.map((m) => ({
      name: m.name,
      description: m.description,
      cases: m.cases.map((c) => ({
        id: c.id,
        label: c.label,
        ...(scenarioResults.get(c.id) ?? {}),
        info: scenarioInfo.get(c.id) ?? null,
      })),
      ratios: m.ratios.map((r) => ({ ...r, ratio: scenarioRatio(scenarioResults, r) ?? null })),
    })),
  };
  const out = new URL("./results.json", import.meta.url);
  writeFileSync(out, JSON.stringify(json, null, 2) + "\n");
  console.log(`\nwrote ${out.pathname}`);
}

await main();
