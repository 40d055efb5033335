// Flag and option enums of the calls this binding wraps, from libvirt 9.0's headers; names without the
// VIR_ prefix. Bit flags combine with `|`.

/** `virDomainCreateFlags`: how `Domain.start` starts a domain. */
export enum StartFlags {
  None = 0,
  Paused = 1 << 0,
  AutoDestroy = 1 << 1,
  BypassCache = 1 << 2,
  ForceBoot = 1 << 3,
  Validate = 1 << 4,
  ResetNvram = 1 << 5,
}

/** `virDomainShutdownFlagValues`: which mechanism asks the guest to power off. */
export enum ShutdownFlags {
  Default = 0,
  AcpiPowerButton = 1 << 0,
  GuestAgent = 1 << 1,
  Initctl = 1 << 2,
  Signal = 1 << 3,
  Paravirt = 1 << 4,
}

/** `virDomainRebootFlagValues`. */
export enum RebootFlags {
  Default = 0,
  AcpiPowerButton = 1 << 0,
  GuestAgent = 1 << 1,
  Initctl = 1 << 2,
  Signal = 1 << 3,
  Paravirt = 1 << 4,
}

/** `virDomainDestroyFlagsValues`: forced (default, SIGKILL after a grace period) or graceful (SIGTERM only). */
export enum DestroyFlags {
  Default = 0,
  Graceful = 1 << 0,
  RemoveLogs = 1 << 1,
}

/** `virDomainUndefineFlagsValues`. */
export enum UndefineFlags {
  None = 0,
  ManagedSave = 1 << 0,
  SnapshotsMetadata = 1 << 1,
  Nvram = 1 << 2,
  KeepNvram = 1 << 3,
  CheckpointsMetadata = 1 << 4,
  Tpm = 1 << 5,
  KeepTpm = 1 << 6,
}

/** `virDomainDefineFlags`. */
export enum DefineFlags {
  None = 0,
  Validate = 1 << 0,
}

/** `virConnectListAllDomainsFlags`: filters; none means every domain. */
export enum ListDomainsFlags {
  All = 0,
  Active = 1 << 0,
  Inactive = 1 << 1,
  Persistent = 1 << 2,
  Transient = 1 << 3,
  Running = 1 << 4,
  Paused = 1 << 5,
  Shutoff = 1 << 6,
  Other = 1 << 7,
  ManagedSave = 1 << 8,
  NoManagedSave = 1 << 9,
  Autostart = 1 << 10,
  NoAutostart = 1 << 11,
  HasSnapshot = 1 << 12,
  NoSnapshot = 1 << 13,
  HasCheckpoint = 1 << 14,
  NoCheckpoint = 1 << 15,
}

/** `virDomainXMLFlags`. */
export enum DomainXMLFlags {
  None = 0,
  Secure = 1 << 0,
  Inactive = 1 << 1,
  UpdateCpu = 1 << 2,
  Migratable = 1 << 3,
}

/** `virDomainModificationImpact`: the running domain, its persistent config, or whichever applies. */
export enum ModificationImpact {
  Current = 0,
  Live = 1 << 0,
  Config = 1 << 1,
}

/** `virDomainMetadataType`. */
export enum MetadataType {
  Description = 0,
  Title = 1,
  Element = 2,
}

/** `virDomainInterfaceAddressesSource`. */
export enum InterfaceAddressSource {
  Lease = 0,
  Agent = 1,
  Arp = 2,
}

/** `virIPAddrType`. */
export enum IPAddressType {
  IPv4 = 0,
  IPv6 = 1,
}

/** `virDomainConsoleFlags`. */
export enum ConsoleFlags {
  None = 0,
  /** Take the console over from another client. */
  Force = 1 << 0,
  Safe = 1 << 1,
}

/** `virStreamFlags`. */
export enum StreamFlags {
  None = 0,
  NonBlock = 1 << 0,
}

/** `virStreamEventType`. */
export enum StreamEvents {
  Readable = 1 << 0,
  Writable = 1 << 1,
  Error = 1 << 2,
  Hangup = 1 << 3,
}

/** `virConnectCloseReason`. */
export enum CloseReason {
  Error = 0,
  EndOfFile = 1,
  Keepalive = 2,
  Client = 3,
}

/** `virDomainEventID` values this binding subscribes to. */
export enum DomainEventId {
  Lifecycle = 0,
  AgentLifecycle = 18,
}

/** `virDomainGuestInfoTypes`: what virDomainGetGuestInfo asks the guest agent for (0: everything). */
export enum GuestInfoTypes {
  All = 0,
  Users = 1 << 0,
  OS = 1 << 1,
  Timezone = 1 << 2,
  Hostname = 1 << 3,
  Filesystem = 1 << 4,
  Disks = 1 << 5,
}

/** `virConnectDomainEventAgentLifecycleState`. */
export enum AgentLifecycleState {
  Connected = 1,
  Disconnected = 2,
}

/** `virConnectDomainEventAgentLifecycleReason`. */
export enum AgentLifecycleReason {
  Unknown = 0,
  DomainStarted = 1,
  Channel = 2,
}

/** `virDomainQemuAgentCommandTimeoutValues`; a positive number is seconds. */
export enum AgentCommandTimeout {
  Block = -2,
  Default = -1,
  NoWait = 0,
}
