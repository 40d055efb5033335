// One look at a libvirt domain: its state, its live definition, and whose it is. Everything the
// VMI controller decides on comes from here and from the caches, never from remembered events.

import {
  type DomainDefinition,
  domainFromXml,
  type NetworkInterface,
} from "../../libvirt/domain-xml/index.js";
import { type Connection, type Domain, DomainState, ErrorCode, LibvirtError } from "../../libvirt/index.js";
import { passtNicsOf } from "../converter/passt-nic.js";
import { agentChannelConnected, type GuestAgentFacts } from "../guest-agent/agent-facts.js";
import { taggedNode } from "./domain-tag.js";
import type { VmiDomainFactory, VmiIdentity } from "./vmi-domain-factory.js";

/** The part of a domain's state the VMI's status is computed from (plain data, for pure functions). */
export interface DomainFacts {
  readonly state: DomainState;
  /** The reason, libvirt's number for the state's reason enum (ShutoffReason, PausedReason, ...). */
  readonly reason: number;
  readonly interfaces: readonly NetworkInterface[];
  /** The live disks that carry a VMI disk's alias (`ua-<name>`): their target device, by disk name. */
  readonly disks?: ReadonlyMap<string, string>;
  /** The guest agent: connected per the live XML; its report added by the reconciler. */
  readonly agent?: GuestAgentFacts;
}

export interface ObservedDomain {
  /** The caller frees it. */
  readonly handle: Domain;
  readonly name: string;
  /** The VMI the converter recorded in the domain's metadata. */
  readonly identity: VmiIdentity | undefined;
  /** The node whose handler defined it. */
  readonly node: string | undefined;
  readonly facts: DomainFacts;
  /** The live definition; undefined when our model cannot read it (then the domain is not ours). */
  readonly definition: DomainDefinition | undefined;
}

/** The domain called `name`, or undefined when there is none (or it vanished while we looked). */
export function observeDomainByName(
  connection: Connection,
  name: string,
  factory: VmiDomainFactory,
): ObservedDomain | undefined {
  const handle = connection.findDomainByName(name);
  if (handle === null) return undefined;
  const observed = observeHandle(handle, factory);
  if (observed === undefined) handle.free();
  return observed;
}

/**
 * The domain called `name`, read on libvirt's worker threads (lookup, state and XML are RPCs that
 * wait for a busy daemon: on the main thread every other reconcile would wait too); undefined
 * when there is none, or it vanished while we looked.
 */
export async function readObservedDomain(
  connection: Connection,
  name: string,
  factory: VmiDomainFactory,
): Promise<ObservedDomain | undefined> {
  try {
    const read = await connection.readDomainByName(name);
    return read === null ? undefined : observed(read.domain, read.state, read.xml, factory);
  } catch (error) {
    if (LibvirtError.is(error, ErrorCode.NoDomain)) return undefined;
    throw error;
  }
}

/** Reads a domain; undefined (the handle left to the caller) when it vanished meanwhile. */
export function observeHandle(handle: Domain, factory: VmiDomainFactory): ObservedDomain | undefined {
  try {
    return observed(handle, handle.state(), handle.xml(), factory);
  } catch (error) {
    if (LibvirtError.is(error, ErrorCode.NoDomain)) return undefined;
    throw error;
  }
}

function observed(
  handle: Domain,
  state: { state: DomainState; reason: number },
  xml: string,
  factory: VmiDomainFactory,
): ObservedDomain {
  const definition = definitionOf(xml);
  return {
    handle,
    name: handle.name,
    identity: definition === undefined ? undefined : factory.identify(definition),
    node: definition === undefined ? undefined : taggedNode(definition),
    facts: {
      state: state.state,
      reason: state.reason,
      interfaces: interfacesOf(definition),
      disks: disksOf(definition),
      agent: { connected: agentChannelConnected(definition) },
    },
    definition,
  };
}

function definitionOf(xml: string): DomainDefinition | undefined {
  try {
    return domainFromXml(xml);
  } catch {
    // Not written by our model (another program's domain with a shape we do not read): not ours.
    return undefined;
  }
}

/** Whether QEMU runs for the domain (running, paused, blocked, shutting down or suspended to RAM). */
export function isActive(facts: DomainFacts): boolean {
  return facts.state !== DomainState.Shutoff && facts.state !== DomainState.Crashed;
}

/** libvirt's NICs and the passt NICs the converter put on QEMU's command line (passt-nic.ts). */
function interfacesOf(definition: DomainDefinition | undefined): NetworkInterface[] {
  if (definition === undefined) return [];
  return [...(definition.devices.interfaces ?? []), ...passtNicsOf(definition)];
}

function disksOf(definition: DomainDefinition | undefined): ReadonlyMap<string, string> {
  return new Map(
    (definition?.devices.disks ?? []).flatMap((disk) =>
      disk.alias?.startsWith("ua-") ? [[disk.alias.slice(3), disk.target.dev] as const] : [],
    ),
  );
}
