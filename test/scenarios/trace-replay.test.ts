// Trace presets: the cluster sized to a target utilization, SWIM grouped into size queues, both
// printed in the report and overridden by --param.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { offeredUtilization, replayTrace } from "../../src/scenarios/trace-replay.js";
import { loadTrace } from "../../src/traces/index.js";

const engine = loadEngineSync({ backend: "js" });

/** A SWIM file: jobs of 1..2000 maps (small, medium and large queues) every 30 s. */
function swimFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "fs-replay-"));
  const file = join(dir, "mix.tsv");
  const sizes = [5e6, 2e8, 1e11, 3e7, 8e8];
  writeFileSync(file, sizes.flatMap((b, k) => Array.from({ length: 6 }, (_, i) => `job${k * 6 + i}\t${(k * 6 + i) * 30}\t30\t${b}\t${b / 10}\t${b / 20}`)).join("\n") + "\n");
  return file;
}

describe("trace replay presets", () => {
  it("sizes the cluster to targetUtil and groups SWIM by size, printing both", async () => {
    const file = swimFile();
    const { report } = await replayTrace(file, { seed: 1, engine, policies: ["drf", "fifo"] });
    const notes = report.tables[0].notes!.join("\n");
    expect(notes).toMatch(/preset queues: SWIM jobs grouped by size/);
    expect(notes).toMatch(/preset cluster: \d+ machines, sized for offered utilization 0\.\d\d \(target 0\.8; on 600 machines/);
    expect(report.params.targetUtil).toBe(0.8);
    expect(report.params.offeredUtil as number).toBeGreaterThan(0.4);
    expect(report.params.offeredUtil as number).toBeLessThanOrEqual(0.8);
    expect(report.params.queueBy).toBe("size");
    expect(report.tables[1].rows.map((r) => r[0])).toEqual(["small", "medium", "large"]);
    // the same file on the loader's 600 machines is nearly idle
    const raw = await loadTrace(file, { params: { queueBy: "size" } });
    expect(Math.max(...offeredUtilization(raw.workload))).toBeLessThan(report.params.offeredUtil as number);
  });

  it("--param machines, queueBy and targetUtil override the presets", async () => {
    const file = swimFile();
    const a = await replayTrace(file, { seed: 1, engine, policies: ["drf"], params: { machines: 600, queueBy: "single" } });
    expect(a.report.tables[0].notes ?? []).toEqual([]);
    expect(a.report.params.machines).toBe(600);
    expect(a.report.tables[1].rows.map((r) => r[0])).toEqual(["default"]);
    const b = await replayTrace(file, { seed: 1, engine, policies: ["drf"], params: { targetUtil: 0.4 } });
    const c = await replayTrace(file, { seed: 1, engine, policies: ["drf"], params: { targetUtil: 0.9 } });
    expect(b.report.params.machines as number).toBeGreaterThan(c.report.params.machines as number);
    await expect(replayTrace(file, { seed: 1, engine, params: { targetUtil: -1 } })).rejects.toThrow(/--param targetUtil: must be a utilization/);
  });
});
