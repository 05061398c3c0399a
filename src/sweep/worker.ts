// A sweep worker thread: one engine for its whole life, runs the cells it is sent, one at a
// time, through the scenario registry. Each cell's result depends only on (scenario, policy,
// params, seed), never on which worker ran it or what ran before, so sharding cannot change it.
import { parentPort, workerData } from "node:worker_threads";
import "../util/provide-node-builtins.js"; // Node's fs for the loader in this thread
import { InputError } from "../errors.js";
import { loadEngineSync } from "../engine/load.js";
import { getScenario, listScenarios } from "../scenarios/registry.js";
import type { SweepCell } from "./grid.js";

export interface WorkerInit {
  scenario: string;
  /** Module URLs imported before the first cell: users' own scenarios and policies register there (the built-ins need none). */
  modules: string[];
  backend: "wasm" | "js";
}

export type WorkerReply =
  /** The ScenarioReport as JSON text: serialised here so every path to a file is the same. */
  | { index: number; json: string }
  | { index: number; error: { message: string; field?: string; stack?: string } };

const init = workerData as WorkerInit;
const port = parentPort!;

async function main(): Promise<void> {
  for (const m of init.modules) await import(m);
  const engine = loadEngineSync({ backend: init.backend });
  const scenario = getScenario(init.scenario);
  port.on("message", (cell: SweepCell) => {
    let reply: WorkerReply;
    try {
      if (!scenario) {
        const known = listScenarios().map((s) => s.name).join(", ") || "none";
        throw new InputError("--scenario", `unknown scenario '${init.scenario}' (known: ${known})`);
      }
      const report = scenario.run({ policies: [cell.policy], seed: cell.seed, params: cell.params, engine });
      reply = { index: cell.index, json: JSON.stringify(report) };
    } catch (e) {
      const err = e as Error;
      reply = { index: cell.index, error: { message: err.message, field: e instanceof InputError ? e.field : undefined, stack: err.stack } };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true });
}

main().catch((e: Error) => port.postMessage({ index: -1, error: { message: `worker start failed: ${e.message}`, stack: e.stack } }));
