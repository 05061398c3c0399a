import { loadEngineSync } from "../src/index.js";
import { getScenario } from "../src/scenarios/registry.js";
import { renderHtmlReport } from "../src/report/html.js";
import { writeFileSync } from "node:fs";
const engine = loadEngineSync({ backend: "wasm" });
const run = (name: string, params?: Record<string, string | number>) => getScenario(name)!.run({ seed: 1, engine, params });
const r = [run("justice", { jobs: 150, seeds: 2 }), run("phoenix", { yahooJobs: 300, traceDir: "/work/shared/traces" }), run("ltrf-table1"), run("ltrf-hierarchy"), run("bopf-multi-lq"), run("bopf-uncertain", { cv: "0,0.4" }), run("bopf-estimation-error", { std: "0,0.5", tqJobs: 4 })];
writeFileSync("/tmp/rep/s2.html", renderHtmlReport(r));
