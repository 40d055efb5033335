import { type CallbackErrorHandler, NativeCallback } from "./callbacks.js";
import { lastError } from "./errors.js";
import { type LifecycleEvent, readIdentity, toLifecycleEvent } from "./events.js";
import { callbackTypes, native, type Pointer } from "./ffi.js";
import { DomainEventId } from "./flags.js";

/** One native lifecycle callback registered on one libvirt connection. */
export interface LifecycleRegistration {
  /** Stops delivery (best effort: on a dead connection there is nothing left to stop). */
  deregister(): void;
}

/**
 * Registers a lifecycle callback for every domain of `connection`. libvirt calls it from its event-loop
 * thread; koffi runs it on the main thread while that thread waits, so `dispatch` must be quick.
 */
export function registerLifecycle(
  connection: Pointer,
  dispatch: (event: LifecycleEvent) => void,
  onError: CallbackErrorHandler,
): LifecycleRegistration {
  const callback = NativeCallback.register(
    callbackTypes.lifecycle,
    "domain lifecycle callback",
    onError,
    0,
    (_connection: Pointer, domain: Pointer, type: number, detail: number) => {
      const event = toLifecycleEvent(type, detail, readIdentity(domain));
      if (event) dispatch(event);
      return 0;
    },
  );
  return registerDomainEvent(connection, DomainEventId.Lifecycle, callback);
}

/**
 * Registers `callback` for the domain event `eventId` of every domain of `connection`: the one place
 * a native domain event callback is handed to libvirt, released again if libvirt refuses it.
 */
export function registerDomainEvent(
  connection: Pointer,
  eventId: DomainEventId,
  callback: NativeCallback,
): LifecycleRegistration {
  const id = native.connectDomainEventRegisterAny(
    connection,
    null,
    eventId,
    callback.pointer,
    null,
    callback.freePointer,
  );
  if (id < 0) {
    const err = lastError("virConnectDomainEventRegisterAny");
    callback.release();
    throw err;
  }
  return {
    deregister: () => {
      // libvirt calls the free callback, which unregisters the trampolines.
      native.connectDomainEventDeregisterAny(connection, id);
    },
  };
}
