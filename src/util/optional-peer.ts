// Optional peer dependencies (bullmq, ioredis): only the BullMQ host and `sweep --queue` / `worker`
// need them, so an engine-only install does without. These helpers turn "Cannot find package" into
// one line saying what to install.
import { createRequire } from "node:module";

/** A feature was used whose optional peer packages are not installed. */
export class MissingPeerError extends Error {
  override name = "MissingPeerError";
  constructor(readonly feature: string, readonly packages: readonly string[]) {
    super(`${feature} needs ${packages.join(" and ")}, not installed: npm install ${packages.join(" ")}`);
  }
}

/** Packages among `names` that do not resolve from this package's own location. */
function missing(names: readonly string[]): string[] {
  const req = createRequire(import.meta.url);
  return names.filter((n) => {
    try { req.resolve(n); return false; } catch { return true; }
  });
}

/** Throws MissingPeerError if any of `names` is not installed (checked synchronously, at import). */
export function requirePeers(feature: string, names: readonly string[]): void {
  const absent = missing(names);
  if (absent.length > 0) throw new MissingPeerError(feature, absent);
}

/** bullmq, loaded when first used; a missing install is a MissingPeerError naming `feature`. */
export async function loadBullmq(feature: string): Promise<typeof import("bullmq")> {
  requirePeers(feature, ["bullmq"]);
  return import("bullmq");
}
