// koffi declarations of the libvirt C API (libvirt.so.0) this binding uses. Every thread that imports
// this module (the main thread and the blocking-call workers) gets its own koffi types and functions
// over the same loaded library, so pointers (bigint addresses) are valid in all of them.
import koffi, { type LibraryHandle, type TypeObject } from "koffi";

/** An address returned by libvirt (koffi 3 gives pointers as bigint). */
export type Pointer = bigint;

interface NativeFunction<Args extends unknown[], Result> {
  (...args: Args): Result;
  /** Runs the call on a libuv pool thread; libvirt's per-thread last error is lost to the caller. */
  async(...args: [...Args, (err: unknown, result: Result) => void]): void;
}

function loadLibrary(name: string): LibraryHandle {
  try {
    return koffi.load(name);
  } catch (err) {
    throw new Error(
      `cannot load ${name}: install libvirt (npm run setup-host, or apt-get install libvirt0)`,
      {
        cause: err,
      },
    );
  }
}

const libvirt = loadLibrary("libvirt.so.0");
const libc = loadLibrary("libc.so.6");

function declare<Args extends unknown[], Result>(
  lib: LibraryHandle,
  prototype: string,
): NativeFunction<Args, Result> {
  return lib.func(prototype) as NativeFunction<Args, Result>;
}

type Int = number;
type Str = string | null;
type Ptr = Pointer | null;
type OutInt = [number];
type OutPtr = [Pointer | null];

koffi.opaque("virConnect");
koffi.opaque("virDomain");
koffi.opaque("virStream");

export const types = {
  error: koffi.struct("virError", {
    code: "int",
    domain: "int",
    message: "char *",
    level: "int",
    conn: "void *",
    dom: "void *",
    str1: "char *",
    str2: "char *",
    str3: "char *",
    int1: "int",
    int2: "int",
    net: "void *",
  }),
  nodeInfo: koffi.struct("virNodeInfo", {
    model: "char[32]",
    memory: "unsigned long",
    cpus: "unsigned int",
    mhz: "unsigned int",
    nodes: "unsigned int",
    sockets: "unsigned int",
    cores: "unsigned int",
    threads: "unsigned int",
  }),
  domainInfo: koffi.struct("virDomainInfo", {
    state: "unsigned char",
    maxMem: "unsigned long",
    memory: "unsigned long",
    nrVirtCpu: "unsigned short",
    cpuTime: "unsigned long long",
  }),
  blockStats: koffi.struct("virDomainBlockStatsStruct", {
    rd_req: "long long",
    rd_bytes: "long long",
    wr_req: "long long",
    wr_bytes: "long long",
    errs: "long long",
  }),
  interfaceStats: koffi.struct("virDomainInterfaceStatsStruct", {
    rx_bytes: "long long",
    rx_packets: "long long",
    rx_errs: "long long",
    rx_drop: "long long",
    tx_bytes: "long long",
    tx_packets: "long long",
    tx_errs: "long long",
    tx_drop: "long long",
  }),
  ipAddress: koffi.struct("virDomainIPAddress", { type: "int", addr: "char *", prefix: "unsigned int" }),
  interface: koffi.struct("virDomainInterface", {
    name: "char *",
    hwaddr: "char *",
    naddrs: "unsigned int",
    addrs: "void *",
  }),
};

export const callbackTypes = {
  free: koffi.proto("void virFreeCallback(void *opaque)"),
  timeout: koffi.proto("void virEventTimeoutCallback(int timer, void *opaque)"),
  close: koffi.proto("void virConnectCloseFunc(virConnect *conn, int reason, void *opaque)"),
  lifecycle: koffi.proto(
    "int virConnectDomainEventCallback(virConnect *conn, virDomain *dom, int event, int detail, void *opaque)",
  ),
  generic: koffi.proto(
    "void virConnectDomainEventGenericCallback(virConnect *conn, virDomain *dom, void *opaque)",
  ),
  stream: koffi.proto("void virStreamEventCallback(virStream *st, int events, void *opaque)"),
  agentLifecycle: koffi.proto(
    "void virConnectDomainEventAgentLifecycleCallback(virConnect *conn, virDomain *dom, int state, int reason, void *opaque)",
  ),
};

const d = <Args extends unknown[], Result>(prototype: string) => declare<Args, Result>(libvirt, prototype);

export const native = {
  // errors and library
  getLastError: d<[], Ptr>("virError *virGetLastError(void)"),
  resetLastError: d<[], void>("void virResetLastError(void)"),
  setErrorFunc: d<[Ptr, Ptr], void>("void virSetErrorFunc(void *userData, void *handler)"),
  getVersion: d<[OutInt, Str, OutInt], Int>(
    "int virGetVersion(_Out_ unsigned long *libVer, const char *type, _Out_ unsigned long *typeVer)",
  ),
  // event loop
  eventRegisterDefaultImpl: d<[], Int>("int virEventRegisterDefaultImpl(void)"),
  eventRunDefaultImpl: d<[], Int>("int virEventRunDefaultImpl(void)"),
  eventAddTimeout: d<[Int, Pointer, Ptr, Ptr], Int>(
    "int virEventAddTimeout(int timeout, virEventTimeoutCallback *cb, void *opaque, virFreeCallback *ff)",
  ),
  eventUpdateTimeout: d<[Int, Int], void>("void virEventUpdateTimeout(int timer, int timeout)"),
  eventRemoveTimeout: d<[Int], Int>("int virEventRemoveTimeout(int timer)"),
  // connections
  connectOpen: d<[string], Ptr>("virConnect *virConnectOpen(const char *name)"),
  connectOpenReadOnly: d<[string], Ptr>("virConnect *virConnectOpenReadOnly(const char *name)"),
  connectClose: d<[Pointer], Int>("int virConnectClose(virConnect *conn)"),
  connectIsAlive: d<[Pointer], Int>("int virConnectIsAlive(virConnect *conn)"),
  connectSetKeepAlive: d<[Pointer, Int, Int], Int>(
    "int virConnectSetKeepAlive(virConnect *conn, int interval, unsigned int count)",
  ),
  connectGetCapabilities: d<[Pointer], Ptr>("void *virConnectGetCapabilities(virConnect *conn)"),
  connectGetHostname: d<[Pointer], Ptr>("void *virConnectGetHostname(virConnect *conn)"),
  connectGetURI: d<[Pointer], Ptr>("void *virConnectGetURI(virConnect *conn)"),
  connectGetVersion: d<[Pointer, OutInt], Int>(
    "int virConnectGetVersion(virConnect *conn, _Out_ unsigned long *v)",
  ),
  connectGetLibVersion: d<[Pointer, OutInt], Int>(
    "int virConnectGetLibVersion(virConnect *conn, _Out_ unsigned long *v)",
  ),
  nodeGetInfo: d<[Pointer, Record<string, unknown>], Int>(
    "int virNodeGetInfo(virConnect *conn, _Out_ virNodeInfo *info)",
  ),
  connectRegisterCloseCallback: d<[Pointer, Pointer, Ptr, Ptr], Int>(
    "int virConnectRegisterCloseCallback(virConnect *conn, virConnectCloseFunc *cb, void *opaque, virFreeCallback *ff)",
  ),
  connectUnregisterCloseCallback: d<[Pointer, Pointer], Int>(
    "int virConnectUnregisterCloseCallback(virConnect *conn, virConnectCloseFunc *cb)",
  ),
  connectDomainEventRegisterAny: d<[Pointer, Ptr, Int, Pointer, Ptr, Ptr], Int>(
    "int virConnectDomainEventRegisterAny(virConnect *conn, virDomain *dom, int eventID, " +
      "virConnectDomainEventGenericCallback *cb, void *opaque, virFreeCallback *ff)",
  ),
  connectDomainEventDeregisterAny: d<[Pointer, Int], Int>(
    "int virConnectDomainEventDeregisterAny(virConnect *conn, int callbackID)",
  ),
  connectListAllDomains: d<[Pointer, OutPtr, Int], Int>(
    "int virConnectListAllDomains(virConnect *conn, _Out_ void **domains, unsigned int flags)",
  ),
  // domains
  domainDefineXMLFlags: d<[Pointer, string, Int], Ptr>(
    "virDomain *virDomainDefineXMLFlags(virConnect *conn, const char *xml, unsigned int flags)",
  ),
  domainLookupByName: d<[Pointer, string], Ptr>(
    "virDomain *virDomainLookupByName(virConnect *conn, const char *name)",
  ),
  domainLookupByUUIDString: d<[Pointer, string], Ptr>(
    "virDomain *virDomainLookupByUUIDString(virConnect *conn, const char *uuid)",
  ),
  domainFree: d<[Pointer], Int>("int virDomainFree(virDomain *dom)"),
  domainRef: d<[Pointer], Int>("int virDomainRef(virDomain *dom)"),
  domainGetName: d<[Pointer], Str>("const char *virDomainGetName(virDomain *dom)"),
  domainGetUUIDString: d<[Pointer, Buffer], Int>("int virDomainGetUUIDString(virDomain *dom, char *buf)"),
  domainGetID: d<[Pointer], Int>("unsigned int virDomainGetID(virDomain *dom)"),
  domainIsActive: d<[Pointer], Int>("int virDomainIsActive(virDomain *dom)"),
  domainIsPersistent: d<[Pointer], Int>("int virDomainIsPersistent(virDomain *dom)"),
  domainCreateWithFlags: d<[Pointer, Int], Int>(
    "int virDomainCreateWithFlags(virDomain *dom, unsigned int flags)",
  ),
  domainShutdownFlags: d<[Pointer, Int], Int>(
    "int virDomainShutdownFlags(virDomain *dom, unsigned int flags)",
  ),
  domainDestroyFlags: d<[Pointer, Int], Int>("int virDomainDestroyFlags(virDomain *dom, unsigned int flags)"),
  domainReboot: d<[Pointer, Int], Int>("int virDomainReboot(virDomain *dom, unsigned int flags)"),
  domainReset: d<[Pointer, Int], Int>("int virDomainReset(virDomain *dom, unsigned int flags)"),
  domainSuspend: d<[Pointer], Int>("int virDomainSuspend(virDomain *dom)"),
  domainResume: d<[Pointer], Int>("int virDomainResume(virDomain *dom)"),
  domainUndefineFlags: d<[Pointer, Int], Int>(
    "int virDomainUndefineFlags(virDomain *dom, unsigned int flags)",
  ),
  domainGetState: d<[Pointer, OutInt, OutInt, Int], Int>(
    "int virDomainGetState(virDomain *dom, _Out_ int *state, _Out_ int *reason, unsigned int flags)",
  ),
  domainGetInfo: d<[Pointer, Record<string, unknown>], Int>(
    "int virDomainGetInfo(virDomain *dom, _Out_ virDomainInfo *info)",
  ),
  domainGetXMLDesc: d<[Pointer, Int], Ptr>("void *virDomainGetXMLDesc(virDomain *dom, unsigned int flags)"),
  domainGetMetadata: d<[Pointer, Int, Str, Int], Ptr>(
    "void *virDomainGetMetadata(virDomain *dom, int type, const char *uri, unsigned int flags)",
  ),
  domainSetMetadata: d<[Pointer, Int, Str, Str, Str, Int], Int>(
    "int virDomainSetMetadata(virDomain *dom, int type, const char *metadata, const char *key, " +
      "const char *uri, unsigned int flags)",
  ),
  domainInterfaceAddresses: d<[Pointer, OutPtr, Int, Int], Int>(
    "int virDomainInterfaceAddresses(virDomain *dom, _Out_ void **ifaces, unsigned int source, unsigned int flags)",
  ),
  domainInterfaceFree: d<[Pointer], void>("void virDomainInterfaceFree(void *iface)"),
  domainBlockStats: d<[Pointer, string, Record<string, unknown>, Int], Int>(
    "int virDomainBlockStats(virDomain *dom, const char *disk, _Out_ virDomainBlockStatsStruct *stats, size_t size)",
  ),
  domainInterfaceStats: d<[Pointer, string, Record<string, unknown>, Int], Int>(
    "int virDomainInterfaceStats(virDomain *dom, const char *device, " +
      "_Out_ virDomainInterfaceStatsStruct *stats, size_t size)",
  ),
  domainOpenConsole: d<[Pointer, Str, Pointer, Int], Int>(
    "int virDomainOpenConsole(virDomain *dom, const char *dev, virStream *st, unsigned int flags)",
  ),
  domainGetGuestInfo: d<[Pointer, Int, OutPtr, OutInt, Int], Int>(
    "int virDomainGetGuestInfo(virDomain *dom, unsigned int types, _Out_ void **params, _Out_ int *nparams, unsigned int flags)",
  ),
  typedParamsFree: d<[Pointer, Int], void>("void virTypedParamsFree(void *params, int nparams)"),
  domainAttachDeviceFlags: d<[Pointer, string, Int], Int>(
    "int virDomainAttachDeviceFlags(virDomain *domain, const char *xml, unsigned int flags)",
  ),
  domainDetachDeviceAlias: d<[Pointer, string, Int], Int>(
    "int virDomainDetachDeviceAlias(virDomain *domain, const char *alias, unsigned int flags)",
  ),
  domainFDAssociate: d<[Pointer, string, Int, Int32Array, Int], Int>(
    "int virDomainFDAssociate(virDomain *domain, const char *name, unsigned int nfds, int *fds, unsigned int flags)",
  ),
  domainSetSchedulerParametersFlags: d<[Pointer, Buffer, Int, Int], Int>(
    "int virDomainSetSchedulerParametersFlags(virDomain *dom, void *params, int nparams, unsigned int flags)",
  ),
  // streams
  streamNew: d<[Pointer, Int], Ptr>("virStream *virStreamNew(virConnect *conn, unsigned int flags)"),
  streamRecv: d<[Pointer, Buffer, Int], Int>(
    "int virStreamRecv(virStream *st, _Out_ uint8_t *data, size_t nbytes)",
  ),
  streamSend: d<[Pointer, Buffer, Int], Int>(
    "int virStreamSend(virStream *st, const uint8_t *data, size_t nbytes)",
  ),
  streamEventAddCallback: d<[Pointer, Int, Pointer, Ptr, Ptr], Int>(
    "int virStreamEventAddCallback(virStream *st, int events, virStreamEventCallback *cb, void *opaque, " +
      "virFreeCallback *ff)",
  ),
  streamEventUpdateCallback: d<[Pointer, Int], Int>(
    "int virStreamEventUpdateCallback(virStream *st, int events)",
  ),
  streamEventRemoveCallback: d<[Pointer], Int>("int virStreamEventRemoveCallback(virStream *st)"),
  streamFinish: d<[Pointer], Int>("int virStreamFinish(virStream *st)"),
  streamAbort: d<[Pointer], Int>("int virStreamAbort(virStream *st)"),
  streamFree: d<[Pointer], Int>("int virStreamFree(virStream *st)"),
};

const libvirtQemu = loadLibrary("libvirt-qemu.so.0");

/** libvirt-qemu.so.0: QEMU-specific calls (the guest agent passthrough). */
export const qemuNative = {
  domainQemuAgentCommand: declare<[Pointer, string, Int, Int], Ptr>(
    libvirtQemu,
    "void *virDomainQemuAgentCommand(virDomain *dom, const char *cmd, int timeout, unsigned int flags)",
  ),
};

export const libcNative = {
  free: declare<[Pointer], void>(libc, "void free(void *ptr)"),
  dlopen: declare<[string, Int], Ptr>(libc, "void *dlopen(const char *file, int mode)"),
  dlsym: declare<[Pointer, string], Ptr>(libc, "void *dlsym(void *handle, const char *name)"),
};

/** Reads a `char *` that the caller owns and frees it. */
export function takeString(pointer: Pointer | null): string | null {
  if (pointer === null) return null;
  try {
    return koffi.decode.string(pointer);
  } finally {
    libcNative.free(pointer);
  }
}

/** Reads an array of `count` pointers that the caller owns and frees the array (not its elements). */
export function takePointerArray(pointer: Pointer | null, count: number): Pointer[] {
  if (pointer === null) return [];
  try {
    return count === 0 ? [] : (koffi.decode(pointer, koffi.array("void *", count)) as Pointer[]);
  } finally {
    libcNative.free(pointer);
  }
}

export function decodeStruct(pointer: Pointer, type: TypeObject): Record<string, unknown> {
  return koffi.decode(pointer, type) as Record<string, unknown>;
}
