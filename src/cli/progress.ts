// The CLI's one progress bar, on stderr: label, cells done (when counting cells), percent,
// elapsed time and ETA, redrawn in place at most every 200 ms. Silent when the stream is not a
// terminal (pipes, files), under CI (the CI variable set) and on TERM=dumb (no cursor control),
// so output files and logs stay clean. Runs below the CLI (scenarios,
// sweeps) report progress through callbacks and never draw.
export interface Progress {
  /** Sets the fraction done, in [0, 1]. */
  update(fraction: number): void;
  /** One more unit done (a sweep cell); the fraction becomes done / total. */
  tick(): void;
  /** Clears the line if anything was drawn. */
  done(): void;
}

export interface ProgressOptions {
  /** Units of work (sweep cells): shows "d/total cells". Omitted: a fraction only. */
  total?: number;
  /** Draw nothing until the run has lasted this long (ms), so short runs print nothing. Default 0. */
  delayMs?: number;
  /** Clock in ms (tests). Default Date.now. */
  now?: () => number;
}

/** Progress may be drawn: not under CI (CI set and not "false"/"0") and not on a dumb terminal. */
export function progressAllowed(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI;
  if (ci !== undefined && ci !== "" && ci !== "false" && ci !== "0") return false;
  return env.TERM !== "dumb";
}

const SILENT: Progress = { update() {}, tick() {}, done() {} };
const REDRAW_MS = 200;

function clock(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const t = Math.round(s);
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, "0")}m` : m > 0 ? `${m}m${String(sec).padStart(2, "0")}s` : `${sec}s`;
}

export function progressBar(label: string, stream: NodeJS.WriteStream | undefined = process.stderr, opts: ProgressOptions = {}): Progress {
  const total = opts.total;
  if (!stream?.isTTY || total === 0 || !progressAllowed()) return SILENT;
  const now = opts.now ?? Date.now;
  const delay = opts.delayMs ?? 0;
  const start = now();
  let fraction = 0;
  let finished = 0;
  let last = -Infinity;
  let shown = false;
  const draw = (force: boolean) => {
    const t = now();
    if (t - start < delay || (!force && t - last < REDRAW_MS)) return;
    last = t;
    shown = true;
    const elapsed = (t - start) / 1000;
    // Mean time per unit so far, times what is left (units run in parallel, so this is wall time).
    const eta = fraction > 0 ? (elapsed * (1 - fraction)) / fraction : NaN;
    const count = total === undefined ? "" : `${finished}/${total} cells `;
    stream.write(`\r\x1b[K${label} ${count}${Math.floor(100 * Math.max(0, Math.min(1, fraction)))}%  elapsed ${clock(elapsed)}  eta ${clock(eta)}`);
  };
  if (delay === 0) draw(true);
  return {
    update(f) {
      fraction = f;
      draw(f >= 1);
    },
    tick() {
      finished++;
      fraction = total === undefined ? fraction : finished / total;
      draw(total !== undefined && finished === total);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}

/** A bar counting `total` cells (sweeps). */
export function cellProgress(label: string, total: number, stream: NodeJS.WriteStream | undefined, now: () => number = Date.now): Progress {
  return progressBar(label, stream, { total, now });
}
