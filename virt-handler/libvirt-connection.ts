import type { Logger } from "pino";
import { Connection, type ReconnectOptions } from "../libvirt/index.js";
import { Backoff, sleep, systemClock } from "../runtime/index.js";

/** Opens libvirt's connection, retrying until it answers (a node's libvirtd may start after us). */
export async function openLibvirt(
  uri: string,
  reconnect: ReconnectOptions | undefined,
  log: Logger,
): Promise<Connection> {
  const backoff = new Backoff({ initialMs: 500, maxMs: 10_000 });
  for (;;) {
    try {
      return await Connection.open(uri, { reconnect: reconnect ?? {} });
    } catch (error) {
      const delayMs = backoff.next();
      log.warn({ err: error, uri, retryInMs: delayMs }, "libvirt does not answer");
      await sleep(systemClock, delayMs);
    }
  }
}

/** Whether libvirt answers now (the node's heartbeat reports it). */
export function libvirtAnswers(connection: Connection): boolean {
  if (!connection.connected) return false;
  try {
    connection.versions();
    return true;
  } catch {
    return false;
  }
}
