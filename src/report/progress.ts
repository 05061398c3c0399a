// Sweep progress on a TTY: cells done, percent, elapsed and ETA, redrawn in place. Silent when
// the stream is not a terminal (CI logs, pipes), so output files and logs stay clean.
export interface CellProgress {
  tick(): void;
  done(): void;
}

function clock(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const t = Math.round(s);
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, "0")}m` : m > 0 ? `${m}m${String(sec).padStart(2, "0")}s` : `${sec}s`;
}

export function cellProgress(label: string, total: number, stream: NodeJS.WriteStream | undefined, now: () => number = Date.now): CellProgress {
  if (!stream?.isTTY || total === 0) return { tick() {}, done() {} };
  const start = now();
  let finished = 0;
  let last = 0;
  const draw = (force: boolean) => {
    const t = now();
    if (!force && t - last < 200) return;
    last = t;
    const elapsed = (t - start) / 1000;
    // Mean time per cell so far, times cells left (cells run in parallel, so this is wall time).
    const eta = finished > 0 ? (elapsed / finished) * (total - finished) : NaN;
    stream.write(`\r\x1b[K${label} ${finished}/${total} cells ${Math.floor((100 * finished) / total)}%  elapsed ${clock(elapsed)}  eta ${clock(eta)}`);
  };
  draw(true);
  return {
    tick() {
      finished++;
      draw(finished === total);
    },
    done() {
      stream.write("\r\x1b[K");
    },
  };
}
