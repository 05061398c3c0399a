// Registries are explicit name -> factory maps: importing `fairsched/scenarios` (src/scenarios/
// index.ts) alone gives every built-in scenario, every built-in policy behind them, and the
// Justice allocators, with no side-effect import anywhere in src/; users still add their own.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_SCENARIOS, getScenario, listScenarios, registerScenario, type Scenario } from "../src/scenarios/index.js";
import { getPolicy, listPolicies, policyNames, registerPolicy } from "../src/sim/registry.js";
import { allocatorNames } from "../src/justice/registry.js";
import { loadEngineSync } from "../src/index.js";

const SRC = new URL("../src/", import.meta.url).pathname;
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? tsFiles(join(dir, n)) : n.endsWith(".ts") ? [join(dir, n)] : []));
}

describe("explicit registries", () => {
  it("the built-in scenarios, policies and allocators are in their registries, in a fixed order", () => {
    expect(listScenarios().map((s) => s.name)).toEqual([
      "default", "ltrf-table1", "ltrf-hierarchy", "ltrf-macro", "bopf", "bopf-multi-lq",
      "bopf-uncertain", "bopf-estimation-error", "justice", "phoenix",
    ]);
    expect(BUILTIN_SCENARIOS.map((s) => s.name)).toEqual(listScenarios().map((s) => s.name));
    expect(policyNames()).toEqual(["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"]);
    expect(allocatorNames()).toEqual(["justice", "baseline-fs", "reactive-fs", "oracle"]);
    const r = getScenario("default")!.run({ seed: 1, engine: loadEngineSync(), params: { tqs: 1, tqJobs: 1, bursts: 1 } });
    expect(r.policies).toEqual(policyNames());
  });

  it("the built package: `import \"fairsched/scenarios\"` alone runs a scenario (dist/, as `npm test` builds first)", () => {
    const code = `import { getScenario, listScenarios } from "fairsched/scenarios";
      import { loadEngineSync } from "fairsched";
      const r = getScenario("default").run({ seed: 1, engine: loadEngineSync(), params: { tqs: 1, tqJobs: 1, bursts: 1 } });
      console.log(JSON.stringify({ scenarios: listScenarios().length, policies: r.policies }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: new URL("..", import.meta.url).pathname, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ scenarios: 10, policies: ["drf", "sp", "fifo", "bopf", "nbopf", "mbvt", "ltrf", "mlrf", "h-ltrf"] });
  });

  it("users register their own; a name twice is an error and changes nothing", () => {
    const mine: Scenario = { name: "my-scenario", description: "a user's", defaultPolicies: ["mine"], run: () => { throw new Error("not run"); } };
    registerScenario(mine);
    expect(getScenario("my-scenario")).toBe(mine);
    expect(() => registerScenario({ ...mine })).toThrow("registered twice");
    expect(getScenario("my-scenario")).toBe(mine);
    const drf = getPolicy("drf")!;
    registerPolicy({ name: "mine", description: "a user's", create: () => drf.create() });
    expect(policyNames().at(-1)).toBe("mine");
    expect(() => registerPolicy({ ...drf })).toThrow("registered twice");
    expect(listPolicies().filter((p) => p.name === "drf")).toEqual([drf]);
  });

  it("no module in src/ is imported for its side effects but the Node entries' built-in provider", () => {
    // provide-node-builtins hands node:fs & co. to the loaders on Node entries (package.json
    // "sideEffects" lists it); nothing registers a policy, scenario or allocator that way.
    const found = tsFiles(SRC).flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/^\s*import\s+["']([^"']+)["']/gm)].map((m) => m[1]).filter((spec) => !spec.endsWith("/util/provide-node-builtins.js")).map((spec) => `${f}: ${spec}`));
    expect(found).toEqual([]);
  });
});
