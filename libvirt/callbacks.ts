import koffi, { type TypeObject } from "koffi";
import { callbackTypes } from "./ffi.js";

/** Receives what a callback threw; libvirt callbacks must never throw into native code. */
export type CallbackErrorHandler = (err: unknown, where: string) => void;

/** The default handler: a process warning, never an uncaught exception. */
export const warnOnCallbackError: CallbackErrorHandler = (err, where) => {
  const message = err instanceof Error ? err.message : String(err);
  const detail = err instanceof Error ? err.stack : undefined;
  process.emitWarning(`${where} threw: ${message}`, {
    type: "LibvirtCallbackError",
    ...(detail ? { detail } : {}),
  });
};

/**
 * A JavaScript function registered with koffi as a C callback, plus a `virFreeCallback` to pass along with
 * it. libvirt calls the free callback once it will never call the callback again; only then are both
 * unregistered (unregistering earlier would let libvirt jump into a freed trampoline). An exception in the
 * function is handed to `onError` and the callback returns `fallback`: a JavaScript exception in a callback
 * that koffi ran for another thread would otherwise kill the process.
 */
export class NativeCallback {
  readonly pointer: bigint;
  readonly freePointer: bigint;
  #released = false;

  private constructor(pointer: bigint, freePointer: bigint) {
    this.pointer = pointer;
    this.freePointer = freePointer;
  }

  static register<Args extends unknown[], Result>(
    prototype: TypeObject,
    where: string,
    onError: CallbackErrorHandler,
    fallback: Result,
    body: (...args: Args) => Result,
  ): NativeCallback {
    const guarded = (...args: Args): Result => {
      try {
        return body(...args);
      } catch (err) {
        try {
          onError(err, where);
        } catch {
          // the error handler itself failed: nothing left to report to
        }
        return fallback;
      }
    };
    const pointer = koffi.register(guarded, koffi.pointer(prototype));
    // The free callback may run inside a libvirt call on this very callback; unregister afterwards.
    let self: NativeCallback | undefined;
    const freePointer = koffi.register(() => {
      setImmediate(() => self?.release());
    }, koffi.pointer(callbackTypes.free));
    self = new NativeCallback(pointer, freePointer);
    return self;
  }

  /** Unregisters both trampolines. Call directly only when libvirt never took the callback. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    koffi.unregister(this.pointer);
    koffi.unregister(this.freePointer);
  }
}
