import type { Logger } from "pino";
import type { Connection } from "../libvirt/index.js";
import { enqueueOnDomainEvents } from "./domain/domain-events.js";

export interface LibvirtFollowers {
  domainChanged(key: string): void;
  connectionChanged(): void;
  reconnected(): void;
}

/**
 * Domain events enqueue their VMI; losing or regaining libvirt's connection is reported at once.
 * Returns what unsubscribes.
 */
export function followLibvirt(connection: Connection, log: Logger, on: LibvirtFollowers): () => void {
  const events = enqueueOnDomainEvents(connection, on.domainChanged);
  const onDisconnected = (): void => {
    log.warn("libvirt's connection was lost: the node is not schedulable until it is back");
    on.connectionChanged();
  };
  const onReconnected = (): void => {
    log.info("libvirt's connection is back: looking at every VMI again");
    on.connectionChanged();
    on.reconnected(); // events of the time without a connection are lost
  };
  connection.on("disconnected", onDisconnected);
  connection.on("reconnected", onReconnected);
  return () => {
    events.unsubscribe();
    connection.off("disconnected", onDisconnected);
    connection.off("reconnected", onReconnected);
  };
}
