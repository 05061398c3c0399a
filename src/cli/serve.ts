// `fairsched serve`: the live scheduler as a sidecar (docs/live-scheduler.md): JSON lines over
// stdin/stdout, or over TCP on 127.0.0.1 with --listen PORT (one session per connection).
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Engine } from "../engine/engine.js";
import { ServeSession } from "../live/protocol.js";

/** Serves one session over a pair of streams; resolves when the input ends. */
export function serveStreams(engine: Engine, input: Readable, output: Writable): Promise<void> {
  const session = new ServeSession(engine);
  const rl = createInterface({ input, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    output.write(session.handle(line) + "\n");
  });
  return new Promise((resolve) => rl.on("close", resolve));
}

/** Listens on 127.0.0.1:port; prints the bound port on stderr. */
export function serveTcp(engine: Engine, port: number): Promise<void> {
  const server = createServer((sock) => { void serveStreams(engine, sock, sock).then(() => sock.end()); });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const addr = server.address();
      process.stderr.write(`fairsched serve listening on 127.0.0.1:${typeof addr === "object" && addr ? addr.port : port}\n`);
    });
    server.on("close", resolve);
  });
}
