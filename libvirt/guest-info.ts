// virDomainGetGuestInfo: what the guest agent says about the guest (OS, users, file systems, host
// name, time zone), typed from libvirt's flat parameter list ("os.id", "user.0.name", "fs.1.mountpoint").
import { check } from "./errors.js";
import { native, type Pointer } from "./ffi.js";
import { GuestInfoTypes } from "./flags.js";
import { type TypedParams, takeTypedParams } from "./typed-params.js";

/** The guest's /etc/os-release and uname, as qemu-ga's guest-get-osinfo reports them. */
export interface GuestOSInfo {
  readonly id?: string;
  readonly name?: string;
  readonly prettyName?: string;
  readonly version?: string;
  readonly versionId?: string;
  readonly kernelRelease?: string;
  readonly kernelVersion?: string;
  readonly machine?: string;
  readonly variant?: string;
  readonly variantId?: string;
}

export interface GuestUser {
  readonly name: string;
  readonly domain?: string;
  /** When the user logged in, in milliseconds since the epoch. */
  readonly loginTimeMs?: number;
}

export interface GuestFilesystemDisk {
  readonly alias?: string;
  readonly serial?: string;
  readonly device?: string;
}

export interface GuestFilesystem {
  readonly mountPoint: string;
  /** The device's name in the guest (e.g. "vda1"). */
  readonly name: string;
  readonly fsType: string;
  readonly totalBytes?: number;
  readonly usedBytes?: number;
  readonly disks: readonly GuestFilesystemDisk[];
}

/** What virDomainGetGuestInfo returned; a part is absent when it was not asked for or not known. */
export interface GuestInfo {
  readonly os?: GuestOSInfo;
  readonly users?: readonly GuestUser[];
  readonly filesystems?: readonly GuestFilesystem[];
  readonly hostname?: string;
  readonly timezone?: { readonly name?: string; readonly offsetSeconds?: number };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const OS_FIELDS: ReadonlyArray<readonly [keyof GuestOSInfo, string]> = [
  ["id", "os.id"],
  ["name", "os.name"],
  ["prettyName", "os.pretty-name"],
  ["version", "os.version"],
  ["versionId", "os.version-id"],
  ["kernelRelease", "os.kernel-release"],
  ["kernelVersion", "os.kernel-version"],
  ["machine", "os.machine"],
  ["variant", "os.variant"],
  ["variantId", "os.variant-id"],
];

function text(params: TypedParams, field: string): string | undefined {
  const value = params.get(field);
  return typeof value === "string" ? value : undefined;
}

function numeric(params: TypedParams, field: string): number | undefined {
  const value = params.get(field);
  return typeof value === "number" ? value : undefined;
}

function osInfo(params: TypedParams): GuestOSInfo | undefined {
  const os: Mutable<GuestOSInfo> = {};
  for (const [key, field] of OS_FIELDS) {
    const value = text(params, field);
    if (value !== undefined) os[key] = value;
  }
  return Object.keys(os).length > 0 ? os : undefined;
}

function indexed<T>(params: TypedParams, prefix: string, read: (base: string) => T): T[] | undefined {
  const count = numeric(params, `${prefix}.count`);
  if (count === undefined) return undefined;
  return Array.from({ length: count }, (_, index) => read(`${prefix}.${index}`));
}

function user(params: TypedParams, base: string): GuestUser {
  const entry: Mutable<GuestUser> = { name: text(params, `${base}.name`) ?? "" };
  const domain = text(params, `${base}.domain`);
  if (domain !== undefined) entry.domain = domain;
  const login = numeric(params, `${base}.login-time`);
  if (login !== undefined) entry.loginTimeMs = login;
  return entry;
}

function filesystem(params: TypedParams, base: string): GuestFilesystem {
  const entry: Mutable<GuestFilesystem> = {
    mountPoint: text(params, `${base}.mountpoint`) ?? "",
    name: text(params, `${base}.name`) ?? "",
    fsType: text(params, `${base}.fstype`) ?? "",
    disks: indexed(params, `${base}.disk`, (disk) => diskOf(params, disk)) ?? [],
  };
  const total = numeric(params, `${base}.total-bytes`);
  if (total !== undefined) entry.totalBytes = total;
  const used = numeric(params, `${base}.used-bytes`);
  if (used !== undefined) entry.usedBytes = used;
  return entry;
}

function diskOf(params: TypedParams, base: string): GuestFilesystemDisk {
  const disk: Mutable<GuestFilesystemDisk> = {};
  for (const key of ["alias", "serial", "device"] as const) {
    const value = text(params, `${base}.${key}`);
    if (value !== undefined) disk[key] = value;
  }
  return disk;
}

/** Types libvirt's parameter list (pure: exported for tests). */
export function guestInfoFromParams(params: TypedParams): GuestInfo {
  const info: Mutable<GuestInfo> = {};
  const os = osInfo(params);
  if (os !== undefined) info.os = os;
  const users = indexed(params, "user", (base) => user(params, base));
  if (users !== undefined) info.users = users;
  const filesystems = indexed(params, "fs", (base) => filesystem(params, base));
  if (filesystems !== undefined) info.filesystems = filesystems;
  const hostname = text(params, "hostname");
  if (hostname !== undefined) info.hostname = hostname;
  const zone = text(params, "timezone.name");
  const offset = numeric(params, "timezone.offset");
  if (zone !== undefined || offset !== undefined) {
    info.timezone = {
      ...(zone !== undefined ? { name: zone } : {}),
      ...(offset !== undefined ? { offsetSeconds: offset } : {}),
    };
  }
  return info;
}

/** Calls virDomainGetGuestInfo (blocks while the agent answers: run it on the blocking pool). */
export function queryGuestInfo(domain: Pointer, types: GuestInfoTypes = GuestInfoTypes.All): GuestInfo {
  const out: [Pointer | null] = [null];
  const count: [number] = [0];
  check("virDomainGetGuestInfo", native.domainGetGuestInfo(domain, types, out, count, 0));
  return guestInfoFromParams(takeTypedParams(out[0], count[0]));
}
