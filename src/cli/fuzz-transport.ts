// The one transport under `fuzz --cmd` (an allocator) and `fuzz --scheduler` (a whole
// scheduler): a command started through the shell, one request line in, one answer line out.
// What a hostile or broken command can do to the fuzzer is bounded here:
// - every process it starts ends with it: the shell runs in a process group of its own, killed
//   as a group, and every process that inherited this channel's token in its environment is
//   killed too (a `setsid` grandchild leaves the group but keeps the environment; Linux /proc);
// - answers pair with requests by strict alternation: a line that arrives while no request is
//   outstanding, or after the answer in the same read, is a finding ("answered twice"), never
//   taken as the answer to a later request (requests may be pipelined: answers come in request
//   order, one each; an extra line is pinned on the request it followed
//   when it arrives in the same read as the answer or the next one; later, on the next request);
// - a line longer than `maxLineBytes` is a finding that says so, not a timeout.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** Extra time for a command's first answer after it starts (interpreters take a while to boot). */
export const STARTUP_GRACE_MS = 3000;
/** Longest answer line accepted (characters; JSON answers of the fuzzers are far smaller). */
export const DEFAULT_MAX_LINE = 16 * 2 ** 20;
/** The environment variable that marks every process a channel started. */
export const TOKEN_VAR = "FAIRSCHED_FUZZ_CHILD";

/** What went wrong with the command itself; `hang` when it did not answer in time. */
export class TransportFault extends Error {
  /** `stale`: the fault is the previous request's (a line that came after its answer was taken). */
  constructor(message: string, readonly hang = false, readonly stale = false) {
    super(message);
  }
}

export interface LineChannel {
  /**
   * Writes one request line (no newline) and resolves with the answer line, or rejects with a
   * TransportFault. Several may be outstanding (pipelined): answers pair with requests in order.
   */
  exchange(line: string): Promise<string>;
  /** Kills the command and everything it started. */
  close(): void;
}

export interface LineChannelOptions {
  timeoutMs: number;
  maxLineBytes?: number;
}

export const clip = (s: string, n = 200): string => (s.length > n ? s.slice(0, n) + "..." : s);

/** Kills every process whose environment carries `TOKEN_VAR=token` (Linux; elsewhere nothing to scan). */
export function killMarked(token: string): number {
  const mark = Buffer.from(`${TOKEN_VAR}=${token}\0`);
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  let killed = 0;
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (env.indexOf(mark) < 0) continue;
    try {
      process.kill(Number(name), "SIGKILL");
      killed++;
    } catch { /* already gone */ }
  }
  return killed;
}

/** Starts `command` lazily (on the first exchange, and again after a kill). */
export function openLineChannel(command: string, options: LineChannelOptions): LineChannel {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  let child: ChildProcess | null = null;
  let token = "";
  let parts: string[] = [];
  let pending = 0;
  let stderrTail = "";
  /** Lines that arrived with no request outstanding (or after its answer). */
  let unasked: string | null = null;
  let startedAt = 0;
  /** Requests written and not yet answered, oldest first (answers come in request order). */
  let waiting: Array<{ resolve: (line: string) => void; reject: (e: TransportFault) => void }> = [];
  const rejectAll = (why: TransportFault) => { const ws = waiting; waiting = []; for (const w of ws) w.reject(why); };

  const kill = () => {
    const c = child;
    child = null;
    if (c && c.exitCode === null && c.signalCode === null) {
      try { process.kill(-c.pid!, "SIGKILL"); } catch { c.kill("SIGKILL"); }
    }
    if (token) killMarked(token);
  };
  const fail = (c: ChildProcess, why: TransportFault) => {
    if (c !== child) return;
    kill();
    rejectAll(why);
  };
  const start = (): ChildProcess => {
    parts = [];
    pending = 0;
    stderrTail = "";
    unasked = null;
    if (token) killMarked(token); // what the previous start left (it exited on its own)
    token = randomBytes(12).toString("hex");
    const c = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"], detached: true, env: { ...process.env, [TOKEN_VAR]: token } });
    c.stdout!.setEncoding("utf8");
    c.stderr!.setEncoding("utf8");
    c.stdout!.on("data", (chunk: string) => {
      if (c !== child) return;
      // only the new chunk is searched for a newline: a long line costs linear time
      let from = 0;
      let at: number;
      while ((at = chunk.indexOf("\n", from)) >= 0) {
        parts.push(chunk.slice(from, at));
        const line = parts.join("").replace(/\r$/, "");
        parts = [];
        pending = 0;
        from = at + 1;
        if (waiting.length > 0 && unasked === null) waiting.shift()!.resolve(line); else unasked ??= line;
      }
      if (from < chunk.length) { parts.push(chunk.slice(from)); pending += chunk.length - from; }
      if (pending > maxLine) {
        const head = parts.join("").slice(0, 60);
        fail(c, new TransportFault(`the command printed a line longer than ${maxLine} characters (the limit of an answer line; it starts ${JSON.stringify(head + "...")})`));
      }
    });
    c.stderr!.on("data", (chunk: string) => { stderrTail = (stderrTail + chunk).slice(-400); });
    const gone = (why: string) => {
      if (c !== child) return;
      child = null;
      rejectAll(new TransportFault(why));
    };
    c.on("error", (e) => gone(`the command could not run: ${e.message}`));
    c.on("exit", (code, signal) => gone(`the command exited (${signal ?? `code ${code}`})${stderrTail.trim() ? `, stderr: ${clip(stderrTail.trim())}` : ""}`));
    c.stdin!.on("error", () => {}); // EPIPE after it died: reported by 'exit'
    child = c;
    return c;
  };

  const exchange = (line: string): Promise<string> => {
    // a line nobody asked for: the command is out of step with its requests
    if (unasked !== null) {
      const extra = unasked;
      kill();
      return Promise.reject(new TransportFault(`the command printed a line nobody asked for (it answered the previous request twice, or spoke first): ${JSON.stringify(clip(extra))}`, false, true));
    }
    if (child === null) startedAt = performance.now();
    const c = child ?? start();
    const limitMs = options.timeoutMs + (performance.now() - startedAt < STARTUP_GRACE_MS ? STARTUP_GRACE_MS : 0);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        kill();
        rejectAll(new TransportFault(`the command did not answer within ${options.timeoutMs} ms`, true));
      }, limitMs);
      const w = {
        resolve: (l: string) => {
          clearTimeout(timer);
          if (waiting.length > 0) { resolve(l); return; } // later requests are outstanding: their answers follow
          // the last outstanding request: an extra line in the same read as its answer, or the next
          // read (one more turn of the event loop polls the pipe once more), means it was answered twice
          setImmediate(() => setImmediate(() => {
            if (unasked !== null && c === child && waiting.length === 0) {
              const extra = unasked;
              kill();
              reject(new TransportFault(`the command printed two lines for one request: ${JSON.stringify(clip(l))} then ${JSON.stringify(clip(extra))}`));
            } else resolve(l);
          }));
        },
        reject: (e: TransportFault) => { clearTimeout(timer); reject(e); },
      };
      if (c !== child) { w.reject(new TransportFault("the command exited")); return; }
      waiting.push(w);
      c.stdin!.write(line + "\n");
    });
  };
  return { exchange, close: kill };
}
