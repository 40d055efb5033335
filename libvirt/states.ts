// Domain states and their reasons, from libvirt 9.0 libvirt-domain.h; names without the VIR_ prefix.

/** What a domain is doing (`virDomainState`). */
export enum DomainState {
  NoState = 0,
  Running = 1,
  Blocked = 2,
  Paused = 3,
  Shutdown = 4,
  Shutoff = 5,
  Crashed = 6,
  PMSuspended = 7,
}

/** `virDomainRunningReason`. */
export enum RunningReason {
  Unknown = 0,
  Booted = 1,
  Migrated = 2,
  Restored = 3,
  FromSnapshot = 4,
  Unpaused = 5,
  MigrationCanceled = 6,
  SaveCanceled = 7,
  Wakeup = 8,
  Crashed = 9,
  Postcopy = 10,
  PostcopyFailed = 11,
}

/** `virDomainPausedReason`. */
export enum PausedReason {
  Unknown = 0,
  User = 1,
  Migration = 2,
  Save = 3,
  Dump = 4,
  IOError = 5,
  Watchdog = 6,
  FromSnapshot = 7,
  ShuttingDown = 8,
  Snapshot = 9,
  Crashed = 10,
  StartingUp = 11,
  Postcopy = 12,
  PostcopyFailed = 13,
}

/** `virDomainShutdownReason`. */
export enum ShutdownReason {
  Unknown = 0,
  User = 1,
}

/** `virDomainShutoffReason`. */
export enum ShutoffReason {
  Unknown = 0,
  Shutdown = 1,
  Destroyed = 2,
  Crashed = 3,
  Migrated = 4,
  Saved = 5,
  Failed = 6,
  FromSnapshot = 7,
  Daemon = 8,
}

/** `virDomainCrashedReason`. */
export enum CrashedReason {
  Unknown = 0,
  Panicked = 1,
}
