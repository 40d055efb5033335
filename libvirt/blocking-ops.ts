// Calls that can block for a long time (a QEMU start takes ~0.3 s, a destroy ~0.2 s, an agent query
// seconds). They run on a worker thread, and each reads libvirt's per-thread last error there, right
// after it fails, so the error belongs to the call that raised it.
import { check, checkPointer } from "./errors.js";
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
  undefine: (domain: Pointer, flags: number): number =>
    check("virDomainUndefineFlags", native.domainUndefineFlags(domain, flags)),
  interfaceAddresses: queryInterfaceAddresses,
  guestInfo: queryGuestInfo,
  agentCommand: runAgentCommand,
};

export type BlockingOps = typeof blockingOps;
export type BlockingOpName = keyof BlockingOps;
