// `redis://HOST:PORT/NAME`: where a queue-backed sweep's cells live. NAME is the BullMQ queue name
// (not a Redis database number), so several sweeps can share one Redis under different names.
import { InputError } from "../errors.js";

export interface QueueAddress {
  host: string;
  port: number;
  name: string;
  password?: string;
  username?: string;
}

export function parseQueueUrl(text: string, field = "--queue"): QueueAddress {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new InputError(field, `must be redis://HOST:PORT/NAME, got '${text}'`);
  }
  if (u.protocol !== "redis:") throw new InputError(field, `must start with redis:// (got '${u.protocol}')`);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) throw new InputError(field, `needs a queue name of letters, digits, '_', '.', '-' after the port, e.g. redis://127.0.0.1:6379/sweeps (got '${name}')`);
  const port = u.port === "" ? 6379 : Number(u.port);
  return {
    host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port,
    name,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
  };
}
