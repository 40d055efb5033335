import { check, checkPointer } from "./errors.js";
import { native, type Pointer, takeString } from "./ffi.js";

/** The host as `virNodeGetInfo` describes it. */
export interface NodeInfo {
  readonly model: string;
  readonly memoryKiB: number;
  readonly cpus: number;
  readonly mhz: number;
  readonly numaNodes: number;
  readonly sockets: number;
  readonly cores: number;
  readonly threads: number;
}

/** A libvirt version number (major * 1,000,000 + minor * 1,000 + release), split. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly release: number;
  readonly text: string;
}

export interface Versions {
  /** The hypervisor behind the connection (QEMU's version for qemu://). */
  readonly hypervisor: Version;
  /** The libvirt library (the daemon's, for remote connections). */
  readonly library: Version;
}

export function toVersion(encoded: number): Version {
  const major = Math.floor(encoded / 1_000_000);
  const minor = Math.floor(encoded / 1_000) % 1_000;
  const release = encoded % 1_000;
  return { major, minor, release, text: `${major}.${minor}.${release}` };
}

function takeRequiredString(operation: string, pointer: Pointer | null): string {
  return takeString(checkPointer(operation, pointer)) ?? "";
}

export function readCapabilities(connection: Pointer): string {
  return takeRequiredString("virConnectGetCapabilities", native.connectGetCapabilities(connection));
}

export function readHostname(connection: Pointer): string {
  return takeRequiredString("virConnectGetHostname", native.connectGetHostname(connection));
}

export function readUri(connection: Pointer): string {
  return takeRequiredString("virConnectGetURI", native.connectGetURI(connection));
}

export function readNodeInfo(connection: Pointer): NodeInfo {
  const raw: Record<string, unknown> = {};
  check("virNodeGetInfo", native.nodeGetInfo(connection, raw));
  const info = numericFields(raw);
  return {
    model: typeof raw.model === "string" ? raw.model : "",
    memoryKiB: info("memory"),
    cpus: info("cpus"),
    mhz: info("mhz"),
    numaNodes: info("nodes"),
    sockets: info("sockets"),
    cores: info("cores"),
    threads: info("threads"),
  };
}

export function readVersions(connection: Pointer): Versions {
  const hypervisor: [number] = [0];
  const library: [number] = [0];
  check("virConnectGetVersion", native.connectGetVersion(connection, hypervisor));
  check("virConnectGetLibVersion", native.connectGetLibVersion(connection, library));
  return { hypervisor: toVersion(Number(hypervisor[0])), library: toVersion(Number(library[0])) };
}

/** Numeric fields of a struct koffi filled in (64-bit ones may come as bigint). */
export function numericFields(raw: Record<string, unknown>): (field: string) => number {
  return (field) => {
    const value = raw[field];
    return typeof value === "number" || typeof value === "bigint" ? Number(value) : 0;
  };
}
