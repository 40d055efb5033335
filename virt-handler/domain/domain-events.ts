// libvirt's lifecycle events only say "look again": each one enqueues the key of the VMI the
// domain is named after. What happened is read from libvirt by the reconcile, not from the event.
import type { Connection, Subscription } from "../../libvirt/index.js";
import { vmiKeyOfDomainName } from "./domain-tag.js";

export function enqueueOnDomainEvents(connection: Connection, enqueue: (key: string) => void): Subscription {
  return connection.onLifecycle((event) => {
    const key = vmiKeyOfDomainName(event.domain.name);
    if (key !== undefined) enqueue(key);
  });
}
