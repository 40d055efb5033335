// Quick, read-only domain calls (in-process for test://, one RPC for qemu://), made on the calling
// thread so the error is read right there.

import koffi from "koffi";
import { ErrorCode } from "./error-codes.js";
import { check, lastError } from "./errors.js";
import { native, type Pointer, takeString, types } from "./ffi.js";
import { type MetadataType, ModificationImpact } from "./flags.js";
import { numericFields } from "./host-info.js";
import type {
  CrashedReason,
  DomainState,
  PausedReason,
  RunningReason,
  ShutdownReason,
  ShutoffReason,
} from "./states.js";
import { encodeULLongParams } from "./typed-params.js";

/** A domain's state with the reason typed by state (`virDomainGetState`). */
export type DomainStateInfo =
  | { readonly state: DomainState.Running; readonly reason: RunningReason }
  | { readonly state: DomainState.Paused; readonly reason: PausedReason }
  | { readonly state: DomainState.Shutdown; readonly reason: ShutdownReason }
  | { readonly state: DomainState.Shutoff; readonly reason: ShutoffReason }
  | { readonly state: DomainState.Crashed; readonly reason: CrashedReason }
  | {
      readonly state: DomainState.NoState | DomainState.Blocked | DomainState.PMSuspended;
      readonly reason: number;
    };

/** `virDomainGetInfo`. */
export interface DomainInfo {
  readonly state: DomainState;
  readonly maxMemoryKiB: number;
  readonly memoryKiB: number;
  readonly vcpus: number;
  /** CPU time used, in nanoseconds. */
  readonly cpuTimeNs: number;
}

/** `virDomainBlockStats`; -1 where the hypervisor does not count. */
export interface BlockStats {
  readonly readRequests: number;
  readonly readBytes: number;
  readonly writeRequests: number;
  readonly writeBytes: number;
  readonly errors: number;
}

/** `virDomainInterfaceStats`; -1 where the hypervisor does not count. */
export interface InterfaceStats {
  readonly rxBytes: number;
  readonly rxPackets: number;
  readonly rxErrors: number;
  readonly rxDrops: number;
  readonly txBytes: number;
  readonly txPackets: number;
  readonly txErrors: number;
  readonly txDrops: number;
}

export function readState(domain: Pointer): DomainStateInfo {
  const state: [number] = [0];
  const reason: [number] = [0];
  check("virDomainGetState", native.domainGetState(domain, state, reason, 0));
  return { state: state[0], reason: reason[0] } as DomainStateInfo;
}

export function readInfo(domain: Pointer): DomainInfo {
  const raw: Record<string, unknown> = {};
  check("virDomainGetInfo", native.domainGetInfo(domain, raw));
  const field = numericFields(raw);
  return {
    state: field("state") as DomainState,
    maxMemoryKiB: field("maxMem"),
    memoryKiB: field("memory"),
    vcpus: field("nrVirtCpu"),
    cpuTimeNs: field("cpuTime"),
  };
}

/**
 * Sets the domain's CPU weight (`cpu_shares`: its cgroup's cpu.shares, `<cputune><shares>`),
 * live, in its persistent config, or both.
 */
export function writeCpuShares(domain: Pointer, shares: number, impact: ModificationImpact): void {
  const params = encodeULLongParams(new Map([["cpu_shares", BigInt(shares)]]));
  check(
    "virDomainSetSchedulerParametersFlags",
    native.domainSetSchedulerParametersFlags(domain, params, 1, impact),
  );
}

/**
 * Hands open files to libvirt under `name` (a disk's `<source fdgroup=...>`): the domain's QEMU gets
 * them at its next start (or hotplug) instead of opening a path. The association lasts as long as this
 * connection; libvirt duplicates the descriptors, so the caller may close its own afterwards.
 */
export function writeFdAssociation(domain: Pointer, name: string, fds: readonly number[]): void {
  check("virDomainFDAssociate", native.domainFDAssociate(domain, name, fds.length, Int32Array.from(fds), 0));
}

export function readXml(domain: Pointer, flags: number): string {
  const pointer = native.domainGetXMLDesc(domain, flags);
  if (pointer === null) throw lastError("virDomainGetXMLDesc");
  return takeString(pointer) ?? "";
}

export interface MetadataOptions {
  /** The namespace URI, required for `MetadataType.Element`. */
  readonly uri?: string;
  /** Live state, persistent config or current (default). */
  readonly impact?: ModificationImpact;
}

/** The metadata of `type`, or null when the domain has none. */
export function readMetadata(domain: Pointer, type: MetadataType, options: MetadataOptions): string | null {
  const pointer = native.domainGetMetadata(domain, type, options.uri ?? null, options.impact ?? 0);
  if (pointer !== null) return takeString(pointer);
  const err = lastError("virDomainGetMetadata");
  if (err.code === ErrorCode.NoDomainMetadata) return null;
  throw err;
}

export interface SetMetadataOptions extends MetadataOptions {
  /** The namespace prefix used in the domain XML, required for `MetadataType.Element`. */
  readonly key?: string;
}

/** Sets (or with null removes) the metadata of `type`. */
export function writeMetadata(
  domain: Pointer,
  type: MetadataType,
  value: string | null,
  options: SetMetadataOptions,
): void {
  const impact = options.impact ?? ModificationImpact.Current;
  const result = native.domainSetMetadata(
    domain,
    type,
    value,
    options.key ?? null,
    options.uri ?? null,
    impact,
  );
  check("virDomainSetMetadata", result);
}

export function readBlockStats(domain: Pointer, disk: string): BlockStats {
  const raw: Record<string, unknown> = {};
  check("virDomainBlockStats", native.domainBlockStats(domain, disk, raw, BLOCK_STATS_SIZE));
  const field = numericFields(raw);
  return {
    readRequests: field("rd_req"),
    readBytes: field("rd_bytes"),
    writeRequests: field("wr_req"),
    writeBytes: field("wr_bytes"),
    errors: field("errs"),
  };
}

export function readInterfaceStats(domain: Pointer, device: string): InterfaceStats {
  const raw: Record<string, unknown> = {};
  check("virDomainInterfaceStats", native.domainInterfaceStats(domain, device, raw, INTERFACE_STATS_SIZE));
  const field = numericFields(raw);
  return {
    rxBytes: field("rx_bytes"),
    rxPackets: field("rx_packets"),
    rxErrors: field("rx_errs"),
    rxDrops: field("rx_drop"),
    txBytes: field("tx_bytes"),
    txPackets: field("tx_packets"),
    txErrors: field("tx_errs"),
    txDrops: field("tx_drop"),
  };
}

const BLOCK_STATS_SIZE = koffi.sizeof(types.blockStats);
const INTERFACE_STATS_SIZE = koffi.sizeof(types.interfaceStats);
