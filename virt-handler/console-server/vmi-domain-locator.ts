// From a request's namespace and name to the running domain of that VMI on this node. The VMI comes
// from the handler's cache (only this node's VMIs are in it); the domain is looked at in libvirt
// now, not remembered, and must carry the VMI's uid (a same-named domain of an older VMI is not it).
import type { DomainDefinition } from "../../libvirt/domain-xml/index.js";
import type { Connection, Domain, DomainState } from "../../libvirt/index.js";
import type { SharedInformer } from "../../runtime/index.js";
import { isActive, observeDomainByName } from "../domain/observed-domain.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";
import { HttpError } from "./http-status.js";

/** A VMI's running domain; `handle` belongs to the caller (free it). */
export interface LocatedDomain {
  readonly uid: string;
  readonly handle: Domain;
  readonly state: DomainState;
  /** The live definition (undefined when our model cannot read it). */
  readonly definition: DomainDefinition | undefined;
}

/** Finds a VMI's running domain, or throws the HttpError the request is answered with. */
export interface DomainLocator {
  locate(namespace: string, name: string): LocatedDomain;
}

export interface VmiDomainLocatorOptions {
  readonly nodeName: string;
  readonly vmis: SharedInformer<Vmi>;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
}

export class VmiDomainLocator implements DomainLocator {
  readonly #options: VmiDomainLocatorOptions;

  constructor(options: VmiDomainLocatorOptions) {
    this.#options = options;
  }

  locate(namespace: string, name: string): LocatedDomain {
    const { nodeName, vmis, connection, factory } = this.#options;
    const vmi = vmis.get({ namespace, name });
    const uid = vmi?.metadata?.uid;
    if (vmi === undefined || uid === undefined || vmi.status?.nodeName !== nodeName) {
      throw new HttpError(
        404,
        "NotFound",
        `virtualmachineinstance ${namespace}/${name} is not on node ${nodeName}`,
      );
    }
    const notRunning = new HttpError(409, "Conflict", `VirtualMachineInstance ${name} is not running`);
    const observed = observeDomainByName(connection, factory.domainName(vmi), factory);
    if (observed === undefined) throw notRunning;
    if (observed.identity?.uid !== uid || !isActive(observed.facts)) {
      observed.handle.free();
      throw notRunning;
    }
    return { uid, handle: observed.handle, state: observed.facts.state, definition: observed.definition };
  }
}
