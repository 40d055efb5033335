// libvirt over FFI (koffi → libvirt.so.0): connections, domains, lifecycle events, console streams
// and typed errors. It knows libvirt, not KubeVirt.
export type { AgentLifecycleEvent, AgentLifecycleListener } from "./agent-lifecycle.js";
export { BlockingPool, type BlockingPoolOptions } from "./blocking-pool.js";
export type { CallbackErrorHandler } from "./callbacks.js";
export {
  Connection,
  type ConnectionEvents,
  type ConnectionOptions,
  type KeepAliveOptions,
} from "./connection.js";
export { type ConsoleOptions, ConsoleStream } from "./console.js";
export { Domain } from "./domain.js";
export type {
  BlockStats,
  DomainInfo,
  DomainStateInfo,
  InterfaceStats,
  MetadataOptions,
  SetMetadataOptions,
} from "./domain-queries.js";
export { ErrorCode, ErrorDomain, ErrorLevel } from "./error-codes.js";
export { LibvirtError, type LibvirtErrorData } from "./errors.js";
export * from "./event-details.js";
export { EventLoop } from "./event-loop.js";
export type {
  DomainIdentity,
  LifecycleEvent,
  LifecycleEventKind,
  LifecycleListener,
  Subscription,
} from "./events.js";
export * from "./flags.js";
export {
  type AgentExecOptions,
  type AgentExecResult,
  agentExec,
  agentPing,
} from "./guest-exec.js";
export type {
  GuestFilesystem,
  GuestFilesystemDisk,
  GuestInfo,
  GuestOSInfo,
  GuestUser,
} from "./guest-info.js";
export type { NodeInfo, Version, Versions } from "./host-info.js";
export type { InterfaceAddresses, IPAddress } from "./interface-addresses.js";
export type { ReconnectOptions } from "./reconnector.js";
export * from "./states.js";
