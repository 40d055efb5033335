// VIR_DOMAIN_EVENT_ID_AGENT_LIFECYCLE: the guest agent connected to or left its channel.
import { type CallbackErrorHandler, NativeCallback } from "./callbacks.js";
import { type DomainIdentity, readIdentity } from "./events.js";
import { callbackTypes, type Pointer } from "./ffi.js";
import { type AgentLifecycleReason, AgentLifecycleState, DomainEventId } from "./flags.js";
import { registerDomainEvent } from "./lifecycle-registration.js";

export interface AgentLifecycleEvent {
  readonly domain: DomainIdentity;
  readonly state: AgentLifecycleState;
  readonly reason: AgentLifecycleReason;
}

export type AgentLifecycleListener = (event: AgentLifecycleEvent) => void;

/** One native agent-lifecycle callback on one libvirt connection; `deregister` stops it. */
export interface AgentLifecycleRegistration {
  deregister(): void;
}

/** Registers the agent-lifecycle callback for every domain of `connection` (quick `dispatch`, as for lifecycle). */
export function registerAgentLifecycle(
  connection: Pointer,
  dispatch: AgentLifecycleListener,
  onError: CallbackErrorHandler,
): AgentLifecycleRegistration {
  const callback = NativeCallback.register(
    callbackTypes.agentLifecycle,
    "agent lifecycle callback",
    onError,
    undefined,
    (_connection: Pointer, domain: Pointer, state: number, reason: number) => {
      const known = state === AgentLifecycleState.Connected || state === AgentLifecycleState.Disconnected;
      if (known) dispatch({ domain: readIdentity(domain), state, reason });
    },
  );
  return registerDomainEvent(connection, DomainEventId.AgentLifecycle, callback);
}
