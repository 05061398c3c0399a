// A TCP connection to a JSON-lines server (fairsched serve --listen) that collects the answer
// lines it reads: the one socket reader of the sidecar's socket tests.
import { connect, type Socket } from "node:net";

export interface LineSocket {
  readonly sock: Socket;
  /** Every complete line read so far, in order. */
  readonly lines: string[];
  isClosed(): boolean;
  /** Resolves when the server has closed the connection. */
  readonly closedPromise: Promise<void>;
  /** Waits until `cond()` holds or the connection closes; returns whether it holds. */
  until(cond: () => boolean): Promise<boolean>;
}

export function lineSocket(port: number): LineSocket {
  const sock = connect(port, "127.0.0.1");
  const lines: string[] = [];
  let buf = "";
  let closed = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  sock.on("data", (d) => {
    buf += d.toString();
    const parts = buf.split("\n");
    buf = parts.pop()!;
    lines.push(...parts);
    wake();
  });
  sock.on("close", () => { closed = true; wake(); });
  sock.on("error", () => {});
  return {
    sock, lines,
    isClosed: () => closed,
    closedPromise: new Promise<void>((r) => sock.on("close", () => r())),
    async until(cond) {
      while (!cond() && !closed) await new Promise<void>((r) => waiters.push(r));
      return cond();
    },
  };
}
