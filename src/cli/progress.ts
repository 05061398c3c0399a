// A progress bar on stderr, only when stderr is a TTY, and only once a run has lasted
// about a second (short runs print nothing).
export interface Progress {
  update(fraction: number): void;
  done(): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const start = Date.now();
  let shown = false;
  let last = 0;
  if (!stream.isTTY) return { update() {}, done() {} };
  return {
    update(f) {
      const now = Date.now();
      if (now - start < 1000 || now - last < 100) return;
      last = now;
      shown = true;
      const width = 30;
      const filled = Math.round(Math.max(0, Math.min(1, f)) * width);
      const elapsed = (now - start) / 1000;
      const eta = f > 0 ? elapsed * (1 - f) / f : NaN;
      stream.write(`\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${(f * 100).toFixed(0).padStart(3)}%  eta ${Number.isFinite(eta) ? eta.toFixed(0) + "s" : "?"}   `);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
