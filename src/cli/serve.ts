// `fairsched serve`: the live scheduler as a sidecar (docs/live-scheduler.md): JSON lines over
// stdin/stdout, or over TCP on 127.0.0.1 with --listen PORT (one session per connection).
// Each session is bounded so that no client can take what the others need: a request line's
// length, the answers queued for a client that does not read them (back-pressure: its input is
// not read while they wait; past a limit the session is closed), and, in the session
// (src/live/protocol.ts), its queues and tasks.
import { createServer, type Server, type Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { Engine } from "../engine/engine.js";
import { DEFAULT_SESSION_LIMITS, ServeSession, type SessionLimits } from "../live/protocol.js";

export interface ServeLimits extends SessionLimits {
  /** Longest request line in bytes (without its newline); a longer one closes the session. */
  maxLineBytes: number;
  /** Answers queued for a client that does not read them, in bytes: past it the session is closed. */
  maxQueuedBytes: number;
}

export const DEFAULT_SERVE_LIMITS: Readonly<ServeLimits> = { ...DEFAULT_SESSION_LIMITS, maxLineBytes: 8 * 2 ** 20, maxQueuedBytes: 64 * 2 ** 20 };

/** Queued answers past which a session's input is not read until its client reads them. */
const PAUSE_BYTES = 64 * 1024;

/** What one session has done, for tests and the operator's view. */
export interface SessionStats {
  requests: number;
  /** Bytes of answers written and not yet taken by the client. */
  queuedBytes: number;
  /** The most that was ever queued. */
  peakQueuedBytes: number;
  /** Why the session was closed by the server, if it was. */
  closedFor: string | null;
}

/**
 * Serves one session over a pair of streams; resolves when the input ends or the session is
 * closed for exceeding a limit (after its error line).
 */
export function serveStreams(engine: Engine, input: Readable, output: Writable, limits: Partial<ServeLimits> = {}, stats?: SessionStats): Promise<void> {
  const lim: ServeLimits = { ...DEFAULT_SERVE_LIMITS, ...limits };
  const session = new ServeSession(engine, lim);
  const st: SessionStats = stats ?? { requests: 0, queuedBytes: 0, peakQueuedBytes: 0, closedFor: null };
  // the unfinished line's pieces, and chunks read but not yet handled (while paused)
  let partial: Buffer[] = [];
  let partialBytes = 0;
  const inbox: Buffer[] = [];
  let waiting = false;
  let ended = false;
  let done = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => { finish = resolve; });

  const stop = () => {
    if (done) return;
    done = true;
    input.off("data", onData);
    input.pause();
    finish();
  };
  const write = (text: string) => {
    const more = output.write(text + "\n");
    st.queuedBytes = output.writableLength;
    st.peakQueuedBytes = Math.max(st.peakQueuedBytes, st.queuedBytes);
    return more && output.writableLength < PAUSE_BYTES;
  };
  const closeFor = (field: string, problem: string) => {
    st.closedFor = `${field}: ${problem}`;
    write(JSON.stringify({ error: `${field}: ${problem}; the session is closed`, field }));
    stop();
  };
  const handleLine = (buf: Buffer): boolean => {
    let line = buf.toString("utf8");
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.trim() === "") return true;
    st.requests++;
    const more = write(session.handle(line));
    if (output.writableLength > lim.maxQueuedBytes) {
      closeFor("output", `${output.writableLength} bytes of answers wait for the client to read them, past the limit of ${lim.maxQueuedBytes} (serve --max-queued-bytes)`);
      return false;
    }
    return more;
  };
  /** Handles what was read, line by line, until the output is full (then waits for 'drain'). */
  const pump = () => {
    while (!done && !waiting && inbox.length > 0) {
      const chunk = inbox[0];
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        inbox.shift();
        partial.push(chunk);
        partialBytes += chunk.length;
        if (partialBytes > lim.maxLineBytes) return closeFor("request", `a line longer than ${lim.maxLineBytes} bytes (serve --max-line-bytes)`);
        continue;
      }
      if (partialBytes + nl > lim.maxLineBytes) return closeFor("request", `a line longer than ${lim.maxLineBytes} bytes (serve --max-line-bytes)`);
      const line = partial.length === 0 ? chunk.subarray(0, nl) : Buffer.concat([...partial, chunk.subarray(0, nl)]);
      partial = [];
      partialBytes = 0;
      if (nl + 1 < chunk.length) inbox[0] = chunk.subarray(nl + 1);
      else inbox.shift();
      if (!handleLine(line) && !done) {
        waiting = true;
        input.pause();
        output.once("drain", () => {
          st.queuedBytes = output.writableLength;
          waiting = false;
          if (!done) input.resume();
          pump();
        });
      }
    }
    if (!done && ended && !waiting && inbox.length === 0) {
      if (partialBytes > 0) handleLine(Buffer.concat(partial));
      stop();
    }
  };
  const onData = (chunk: Buffer | string) => {
    inbox.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    if (waiting) input.pause();
    pump();
  };
  input.on("data", onData);
  input.once("end", () => { ended = true; pump(); });
  input.once("close", () => { ended = true; pump(); });
  input.once("error", stop);
  output.once("error", stop);
  return finished;
}

export interface ServeTcpOptions {
  limits?: Partial<ServeLimits>;
  /** Called once listening, with the bound port (default: printed on stderr). */
  onListening?: (port: number) => void;
}

export interface RunningServer {
  server: Server;
  /** One entry per connection so far, in order. */
  sessions: SessionStats[];
  closed: Promise<void>;
}

/** Listens on 127.0.0.1:port, one session per connection. */
export function startServeTcp(engine: Engine, port: number, opts: ServeTcpOptions = {}): Promise<RunningServer> {
  const sessions: SessionStats[] = [];
  const server = createServer((sock: Socket) => {
    const stats: SessionStats = { requests: 0, queuedBytes: 0, peakQueuedBytes: 0, closedFor: null };
    sessions.push(stats);
    sock.on("error", () => {}); // a client gone mid-answer ends its own session only
    void serveStreams(engine, sock, sock, opts.limits, stats).then(() => {
      sock.end();
      // a client that reads nothing cannot hold its socket open: closed a second after our end
      if (stats.closedFor !== null) setTimeout(() => sock.destroy(), 1000).unref();
    });
  });
  const closed = new Promise<void>((resolve) => server.on("close", resolve));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const addr = server.address();
      const bound = typeof addr === "object" && addr ? addr.port : port;
      if (opts.onListening) opts.onListening(bound);
      else process.stderr.write(`fairsched serve listening on 127.0.0.1:${bound}\n`);
      resolve({ server, sessions, closed });
    });
  });
}

/** `serve --listen`: serves until the server closes. */
export async function serveTcp(engine: Engine, port: number, limits: Partial<ServeLimits> = {}): Promise<void> {
  const running = await startServeTcp(engine, port, { limits });
  await running.closed;
}
