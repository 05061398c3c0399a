// `fairsched merge --csv/--html` and `fairsched sweep --csv/--html` as a user runs them (the built
// dist/): the seed aggregates to stdout, the CSV and the HTML page written, status on stderr;
// a shard cannot write them (they need every cell); an unwritable file is a one-line error.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { handMergedSweep } from "../fixtures/sweep-merged.js";

const bin = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "fairsched-sweep-files-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 120_000, cwd: tmp });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The hand-built sweep as the JSON lines `fairsched sweep` writes. */
function jsonl(): string {
  const m = handMergedSweep();
  return [JSON.stringify(m.header), ...m.cells.map((c) => JSON.stringify(c))].join("\n") + "\n";
}

describe("sweep results as CSV and HTML", () => {
  it("merge --csv --html: aggregates on stdout, both files written, status on stderr", () => {
    const file = join(tmp, "hand.jsonl");
    writeFileSync(file, jsonl());
    const r = run(["merge", file, "--csv", "out.csv", "--html", "out.html"]);
    expect(r.err).toBe("CSV written to out.csv\nHTML report written to out.html\n");
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe("hand sweep: Completion times (per cell), mean ± 95% t-interval over 3 seeds");
    expect(r.out).toContain("bopf      1      3          10     2 ± 2.48    1        0.700 ± 0.248");
    const csv = readFileSync(join(tmp, "out.csv"), "utf8").split("\r\n");
    expect(csv[0]).toBe("table,policy,tqs,queue,seeds,LQ avg s mean,LQ avg s lo,LQ avg s hi,LQ x vs drf mean,LQ x vs drf lo,LQ x vs drf hi,TQs mean,TQs lo,TQs hi,LQ met mean,LQ met lo,LQ met hi,share mean,share lo,share hi");
    expect(csv).toHaveLength(1 + 12 + 1); // header, 4 + 8 rows, the final CRLF
    const html = readFileSync(join(tmp, "out.html"), "utf8");
    expect(html).toContain("<figcaption>LQ x vs drf vs tqs</figcaption>");
    expect(html).toContain("default-src 'none'");
  });

  it("a shard cannot write them; an unwritable file is one line naming the flag", () => {
    const shard = run(["sweep", "--shard", "1/2", "--csv", "x.csv", "--seeds", "1"]);
    expect(shard.code).not.toBe(0);
    expect(shard.err).toMatch(/^fairsched: --csv: needs every cell, not one shard: give it to `fairsched merge` of the shards\n$/);
    const file = join(tmp, "hand2.jsonl");
    writeFileSync(file, jsonl());
    const bad = run(["merge", file, "--html", join(tmp, "no", "such", "dir.html")]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/^fairsched: --html: cannot write .*dir\.html: ENOENT\n$/);
  });
});
