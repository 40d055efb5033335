import { check } from "./errors.js";
import {
  type CrashedDetail,
  type DefinedDetail,
  LifecycleEventType,
  type PMSuspendedDetail,
  type ResumedDetail,
  type ShutdownDetail,
  type StartedDetail,
  type StoppedDetail,
  type SuspendedDetail,
  type UndefinedDetail,
} from "./event-details.js";
import { native, type Pointer } from "./ffi.js";

/** Which domain an event is about. */
export interface DomainIdentity {
  readonly name: string;
  readonly uuid: string;
}

interface EventOf<Kind extends string, Detail> {
  readonly kind: Kind;
  readonly detail: Detail;
  readonly domain: DomainIdentity;
}

/** A domain lifecycle event (`VIR_DOMAIN_EVENT_ID_LIFECYCLE`), discriminated by `kind`. */
export type LifecycleEvent =
  | EventOf<"defined", DefinedDetail>
  | EventOf<"undefined", UndefinedDetail>
  | EventOf<"started", StartedDetail>
  | EventOf<"suspended", SuspendedDetail>
  | EventOf<"resumed", ResumedDetail>
  | EventOf<"stopped", StoppedDetail>
  | EventOf<"shutdown", ShutdownDetail>
  | EventOf<"pmsuspended", PMSuspendedDetail>
  | EventOf<"crashed", CrashedDetail>;

export type LifecycleEventKind = LifecycleEvent["kind"];
export type LifecycleListener = (event: LifecycleEvent) => void;

const KINDS: Record<LifecycleEventType, LifecycleEventKind> = {
  [LifecycleEventType.Defined]: "defined",
  [LifecycleEventType.Undefined]: "undefined",
  [LifecycleEventType.Started]: "started",
  [LifecycleEventType.Suspended]: "suspended",
  [LifecycleEventType.Resumed]: "resumed",
  [LifecycleEventType.Stopped]: "stopped",
  [LifecycleEventType.Shutdown]: "shutdown",
  [LifecycleEventType.PMSuspended]: "pmsuspended",
  [LifecycleEventType.Crashed]: "crashed",
};

/**
 * Types the (event, detail) pair libvirt passes to a lifecycle callback; null for an event kind newer
 * than this binding. Details are libvirt's numbers, typed by the enum of their kind.
 */
export function toLifecycleEvent(
  type: number,
  detail: number,
  domain: DomainIdentity,
): LifecycleEvent | null {
  const kind = KINDS[type as LifecycleEventType];
  if (kind === undefined) return null;
  // The detail enums are numeric; each kind pairs with its own (see the union above).
  return { kind, detail, domain } as LifecycleEvent;
}

/** A domain's name and UUID, read from a domain pointer (valid during a callback, or owned). */
export function readIdentity(domain: Pointer): DomainIdentity {
  const buffer = Buffer.alloc(37); // VIR_UUID_STRING_BUFLEN
  check("virDomainGetUUIDString", native.domainGetUUIDString(domain, buffer));
  return { name: native.domainGetName(domain) ?? "", uuid: buffer.toString("latin1", 0, 36) };
}

/** A registration that can be undone. */
export interface Subscription {
  unsubscribe(): void;
}
