// Calls that can block for a long time (a QEMU start takes ~0.3 s, a destroy ~0.2 s, an agent query
// seconds). They run on a worker thread, and each reads libvirt's per-thread last error there, right
// after it fails, so the error belongs to the call that raised it.
import { readState, readXml } from "./domain-queries.js";
import { ErrorCode } from "./error-codes.js";
import { check, checkPointer, lastError } from "./errors.js";
import { native, type Pointer } from "./ffi.js";
import { queryGuestInfo } from "./guest-info.js";
import { queryInterfaceAddresses } from "./interface-addresses.js";
import { runAgentCommand } from "./qemu-agent.js";

export const blockingOps = {
  open: (uri: string, readOnly: boolean): Pointer =>
    readOnly
      ? checkPointer("virConnectOpenReadOnly", native.connectOpenReadOnly(uri))
      : checkPointer("virConnectOpen", native.connectOpen(uri)),
  close: (connection: Pointer): number => check("virConnectClose", native.connectClose(connection)),
  define: (connection: Pointer, xml: string, flags: number): Pointer =>
    checkPointer("virDomainDefineXMLFlags", native.domainDefineXMLFlags(connection, xml, flags)),
  start: (domain: Pointer, flags: number): number =>
    check("virDomainCreateWithFlags", native.domainCreateWithFlags(domain, flags)),
  shutdown: (domain: Pointer, flags: number): number =>
    check("virDomainShutdownFlags", native.domainShutdownFlags(domain, flags)),
  destroy: (domain: Pointer, flags: number): number =>
    check("virDomainDestroyFlags", native.domainDestroyFlags(domain, flags)),
  reboot: (domain: Pointer, flags: number): number =>
    check("virDomainReboot", native.domainReboot(domain, flags)),
  reset: (domain: Pointer): number => check("virDomainReset", native.domainReset(domain, 0)),
  suspend: (domain: Pointer): number => check("virDomainSuspend", native.domainSuspend(domain)),
  resume: (domain: Pointer): number => check("virDomainResume", native.domainResume(domain)),
  attachDevice: (domain: Pointer, xml: string, flags: number): number =>
    check("virDomainAttachDeviceFlags", native.domainAttachDeviceFlags(domain, xml, flags)),
  detachDeviceAlias: (domain: Pointer, alias: string, flags: number): number =>
    check("virDomainDetachDeviceAlias", native.domainDetachDeviceAlias(domain, alias, flags)),
  undefine: (domain: Pointer, flags: number): number =>
    check("virDomainUndefineFlags", native.domainUndefineFlags(domain, flags)),
  readDomainByName: readDomainByName,
  interfaceAddresses: queryInterfaceAddresses,
  guestInfo: queryGuestInfo,
  agentCommand: runAgentCommand,
};

/** A domain looked up by name, with its state and XML read in the same worker call. */
export interface DomainSnapshot {
  /** One reference to the domain, for the caller to take over. */
  readonly domain: Pointer;
  readonly state: number;
  readonly reason: number;
  readonly xml: string;
}

/**
 * Three RPCs to libvirtd (lookup, state, XML) off the main thread: under load each waits for a
 * busy daemon, and on the main thread every other reconcile would wait with it. Null: no such
 * domain.
 */
function readDomainByName(connection: Pointer, name: string, xmlFlags: number): DomainSnapshot | null {
  const domain = native.domainLookupByName(connection, name);
  if (domain === null) {
    const error = lastError("virDomainLookupByName");
    if (error.code === ErrorCode.NoDomain) return null;
    throw error;
  }
  try {
    const { state, reason } = readState(domain);
    return { domain, state, reason, xml: readXml(domain, xmlFlags) };
  } catch (error) {
    native.domainFree(domain);
    throw error;
  }
}

export type BlockingOps = typeof blockingOps;
export type BlockingOpName = keyof BlockingOps;
