// A consumer project around the packed tarball, as a user gets it from `npm install fairsched`:
// `npm pack` of this repository (built first by `npm test`), unpacked into app/node_modules/fairsched
// with its bin on PATH, and every other package linked from this repository's node_modules (no
// network). `without` leaves packages out, to test an install without the optional peers.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

export interface PackedApp {
  dir: string;
  /** Environment for child processes: the package's bin first on PATH. */
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** Packs the repository once into `into` and returns the tarball's path. */
export function packTarball(into: string): string {
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", into, "--loglevel=error"], { cwd: ROOT, encoding: "utf8" });
  return join(into, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
}

export function packedApp(tarball: string, opts: { without?: string[] } = {}): PackedApp {
  const dir = mkdtempSync(join(tmpdir(), "fairsched-app-"));
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("tar", ["-xzf", tarball, "-C", modules]);
  renameSync(join(modules, "package"), join(modules, "fairsched"));
  const cli = join(modules, "fairsched", "dist", "cli", "main.js");
  chmodSync(cli, 0o755);
  symlinkSync(cli, join(modules, ".bin", "fairsched"));
  const skip = new Set(["fairsched", ".bin", ".cache", ".package-lock.json", ...(opts.without ?? [])]);
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (!skip.has(name)) symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  }
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(modules, ".bin")}:${process.env.PATH}` };
  delete env.NODE_OPTIONS; // vitest's own loader hooks are not the user's
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
