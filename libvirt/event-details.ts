// Lifecycle event kinds and details, from libvirt 9.0 libvirt-domain.h; names without the VIR_ prefix.

/** The lifecycle event kinds (`virDomainEventType`). */
export enum LifecycleEventType {
  Defined = 0,
  Undefined = 1,
  Started = 2,
  Suspended = 3,
  Resumed = 4,
  Stopped = 5,
  Shutdown = 6,
  PMSuspended = 7,
  Crashed = 8,
}

/** `virDomainEventDefinedDetailType`. */
export enum DefinedDetail {
  Added = 0,
  Updated = 1,
  Renamed = 2,
  FromSnapshot = 3,
}

/** `virDomainEventUndefinedDetailType`. */
export enum UndefinedDetail {
  Removed = 0,
  Renamed = 1,
}

/** `virDomainEventStartedDetailType`. */
export enum StartedDetail {
  Booted = 0,
  Migrated = 1,
  Restored = 2,
  FromSnapshot = 3,
  Wakeup = 4,
}

/** `virDomainEventSuspendedDetailType`. */
export enum SuspendedDetail {
  Paused = 0,
  Migrated = 1,
  IOError = 2,
  Watchdog = 3,
  Restored = 4,
  FromSnapshot = 5,
  APIError = 6,
  Postcopy = 7,
  PostcopyFailed = 8,
}

/** `virDomainEventResumedDetailType`. */
export enum ResumedDetail {
  Unpaused = 0,
  Migrated = 1,
  FromSnapshot = 2,
  Postcopy = 3,
  PostcopyFailed = 4,
}

/** `virDomainEventStoppedDetailType`. */
export enum StoppedDetail {
  Shutdown = 0,
  Destroyed = 1,
  Crashed = 2,
  Migrated = 3,
  Saved = 4,
  Failed = 5,
  FromSnapshot = 6,
}

/** `virDomainEventShutdownDetailType`. */
export enum ShutdownDetail {
  Finished = 0,
  Guest = 1,
  Host = 2,
}

/** `virDomainEventPMSuspendedDetailType`. */
export enum PMSuspendedDetail {
  Memory = 0,
  Disk = 1,
}

/** `virDomainEventCrashedDetailType`. */
export enum CrashedDetail {
  Panicked = 0,
  Crashloaded = 1,
}
