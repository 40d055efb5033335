// The domains this node's handler defined, found by scanning libvirt (at start, and after a
// reconnection, when events may have been missed).
import type { Connection } from "../../libvirt/index.js";
import { observeHandle } from "./observed-domain.js";
import type { VmiDomainFactory, VmiIdentity } from "./vmi-domain-factory.js";

export interface NodeDomain {
  readonly name: string;
  readonly identity: VmiIdentity;
}

export function domainsOfNode(
  connection: Connection,
  factory: VmiDomainFactory,
  nodeName: string,
): NodeDomain[] {
  const found: NodeDomain[] = [];
  for (const handle of connection.listAllDomains()) {
    try {
      const observed = observeHandle(handle, factory);
      if (observed?.identity !== undefined && observed.node === nodeName) {
        found.push({ name: observed.name, identity: observed.identity });
      }
    } finally {
      handle.free();
    }
  }
  return found;
}

/** The key ("namespace/name") of the VMI a domain belongs to. */
export function vmiKeyOf(identity: VmiIdentity): string {
  return `${identity.namespace}/${identity.name}`;
}
