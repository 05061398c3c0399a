// `fairsched serve` end to end (src/cli/serve.ts): the stdlib-only Python client of
// examples/python-sidecar/ drives the CLI over stdin/stdout (the DRF example, a refused request in
// the middle), and a TCP session on 127.0.0.1 answers line by line.
import { spawn, spawnSync } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = ["node_modules/.bin/tsx", "src/cli/main.ts", "serve"];

describe("fairsched serve", () => {
  it("the Python sidecar client gets the DRF example (3 of A's, 2 of B's) and a refused duplicate id", () => {
    const r = spawnSync("python3", ["examples/python-sidecar/fairsched_client.py", ...CLI], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toEqual(["refused: task.id", '{"A": 3, "B": 2}']);
  }, 150_000);

  it("--listen serves JSON lines over TCP on 127.0.0.1", async () => {
    const child = spawn(CLI[0], [...CLI.slice(1), "--listen", "0"], { cwd: ROOT });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stderr.on("data", (d: Buffer) => { const m = /127\.0\.0\.1:(\d+)/.exec(d.toString()); if (m) resolve(Number(m[1])); });
        child.on("exit", () => reject(new Error("serve exited")));
      });
      const sock = connect(port, "127.0.0.1");
      const lines: string[] = [];
      let buf = "";
      const got = new Promise<void>((resolve) => sock.on("data", (d) => {
        buf += d.toString();
        const parts = buf.split("\n"); buf = parts.pop()!; lines.push(...parts);
        if (lines.length === 4) resolve();
      }));
      sock.write('{"op":"init","policy":"drf","capacity":[2]}\n{"op":"addQueue","queue":"A"}\nnot json\n{"op":"submit","queue":"A","task":{"id":"a","demand":[1]}}\n');
      await got;
      sock.end();
      expect(lines.map((l) => Object.keys(JSON.parse(l))[0])).toEqual(["ok", "admission", "error", "ok"]);
    } finally {
      child.kill();
    }
  }, 150_000);
});
