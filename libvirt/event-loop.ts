import { check } from "./errors.js";
import { libcNative, native } from "./ffi.js";

/**
 * libvirt's default event loop, which delivers domain events, stream events, keepalives and close
 * notifications. It is process-wide in libvirt: it must be registered once, before the first connection
 * is opened (connections opened earlier never get events). It is pumped one iteration at a time on a
 * libuv pool thread (`virEventRunDefaultImpl.async`), so Node's own event loop never blocks; libvirt's
 * callbacks are marshalled by koffi to the main thread.
 *
 * The pump holds one libuv pool slot while it runs: processes that also use fs, dns or crypto heavily
 * should start with `UV_THREADPOOL_SIZE=8`. It keeps Node alive, so it runs only while someone holds it
 * (`acquire`/`release`; connections do).
 */
export class EventLoop {
  static #instance: EventLoop | undefined;
  #holders = 0;
  #pumping = false;
  #wakeTimer = -1;
  #wakeArmed = false;

  private constructor() {
    check("virEventRegisterDefaultImpl", native.eventRegisterDefaultImpl());
    // A pending iteration keeps Node from exiting, even through process.exit() or an uncaught exception
    // (koffi waits for calls in flight). Waking poll() lets that iteration return so the process can go.
    process.once("exit", () => {
      this.#holders = 0;
      this.#wake();
    });
  }

  /** The process's one loop; the first call registers libvirt's default implementation. */
  static default(): EventLoop {
    EventLoop.#instance ??= new EventLoop();
    return EventLoop.#instance;
  }

  get running(): boolean {
    return this.#pumping;
  }

  /** Starts pumping (if this is the first holder). Pair with `release`. */
  acquire(): void {
    this.#holders += 1;
    if (!this.#pumping) this.#start();
  }

  /** Stops pumping once nobody holds the loop, so that Node can exit. */
  release(): void {
    this.#holders = Math.max(0, this.#holders - 1);
    if (this.#holders === 0) this.#wake();
  }

  /** Fires the wake-up timer so that the poll() in flight returns and the pump sees it should stop. */
  #wake(): void {
    if (!this.#pumping || this.#wakeArmed) return;
    this.#wakeArmed = true;
    native.eventUpdateTimeout(this.#wakeTimer, 0);
  }

  #start(): void {
    if (this.#wakeTimer < 0) {
      // A disabled timer (-1) that #wake() fires to interrupt poll(); it does nothing itself. It stays
      // registered for the life of the process (removing it would need one more loop iteration).
      this.#wakeTimer = check(
        "virEventAddTimeout",
        native.eventAddTimeout(-1, noOpTimerCallback(), null, null),
      );
    }
    this.#pumping = true;
    this.#iterate();
  }

  #iterate(): void {
    native.eventRunDefaultImpl.async((err: unknown) => {
      if (this.#wakeArmed) {
        // A timer at 0 fires on every iteration: disarm it, or a quick re-acquire would spin the loop.
        native.eventUpdateTimeout(this.#wakeTimer, -1);
        this.#wakeArmed = false;
      }
      if (this.#holders === 0) {
        this.#pumping = false;
        return;
      }
      // virEventRunDefaultImpl fails only when poll() itself fails; do not spin on a persistent failure.
      if (err !== null && err !== undefined) setTimeout(() => this.#iterate(), 100);
      else setImmediate(() => this.#iterate());
    });
  }
}

/**
 * The wake-up timer's callback must be C, not JavaScript: a JavaScript callback runs on the main thread,
 * and at exit the main thread is the one waiting for the loop, so calling it would deadlock. libc's
 * `sched_yield` takes no arguments, and in the x86-64 and AArch64 C calling conventions the (timer,
 * opaque) arguments libvirt passes are simply ignored.
 */
function noOpTimerCallback(): bigint {
  const RTLD_NOW_NOLOAD = 0x2 | 0x4;
  const libc = libcNative.dlopen("libc.so.6", RTLD_NOW_NOLOAD);
  const yieldFunction = libc === null ? null : libcNative.dlsym(libc, "sched_yield");
  if (yieldFunction === null)
    throw new Error("cannot find sched_yield in libc.so.6 for libvirt's wake-up timer");
  return yieldFunction;
}
