import { Duplex } from "node:stream";
import { type CallbackErrorHandler, NativeCallback, warnOnCallbackError } from "./callbacks.js";
import { checkPointer, lastError } from "./errors.js";
import { callbackTypes, native, type Pointer } from "./ffi.js";
import { ConsoleFlags, StreamEvents, StreamFlags } from "./flags.js";

export interface ConsoleOptions {
  /** The console or serial alias (e.g. "serial0"); the domain's first console when omitted. */
  readonly device?: string;
  /** Take the console over from another client instead of failing. */
  readonly force?: boolean;
  /** Bytes buffered for the reader before reading from libvirt pauses (Node's default: 16 KiB). */
  readonly highWaterMark?: number;
  readonly onCallbackError?: CallbackErrorHandler;
}

interface PendingWrite {
  readonly chunk: Buffer;
  offset: number;
  readonly done: (err?: Error | null) => void;
}

/** virStreamRecv / virStreamSend on a non-blocking stream: nothing can move now. */
const WOULD_BLOCK = -2;
const CHUNK_BYTES = 64 * 1024;

/**
 * A domain's console as a Node Duplex over a non-blocking libvirt stream driven by stream events.
 * Reading stops (READABLE is no longer watched) while the consumer applies backpressure; a write that
 * would block waits for WRITABLE before its callback runs. The readable side ends when the guest stops
 * (end of stream or hang-up); ending the writable side closes the console.
 */
export class ConsoleStream extends Duplex {
  #stream: Pointer | null;
  readonly #callback: NativeCallback;
  readonly #buffer = Buffer.alloc(CHUNK_BYTES);
  #readingPaused = false;
  #pendingWrite: PendingWrite | null = null;

  private constructor(stream: Pointer, onError: CallbackErrorHandler, highWaterMark?: number) {
    super({
      allowHalfOpen: false,
      ...(highWaterMark === undefined ? {} : { readableHighWaterMark: highWaterMark }),
    });
    this.#stream = stream;
    this.#callback = NativeCallback.register(
      callbackTypes.stream,
      "console stream callback",
      onError,
      undefined,
      (_stream: Pointer, events: number) => this.#onEvents(events),
    );
    const added = native.streamEventAddCallback(
      stream,
      this.#watchedEvents(),
      this.#callback.pointer,
      null,
      this.#callback.freePointer,
    );
    if (added < 0) {
      const err = lastError("virStreamEventAddCallback");
      this.#callback.release();
      this.#release("abort");
      throw err;
    }
  }

  /** Opens the console of `domain` (a pointer owned by the caller) on `connection`. */
  static open(connection: Pointer, domain: Pointer, options: ConsoleOptions = {}): ConsoleStream {
    const stream = checkPointer("virStreamNew", native.streamNew(connection, StreamFlags.NonBlock));
    const flags = options.force ? ConsoleFlags.Force : ConsoleFlags.None;
    if (native.domainOpenConsole(domain, options.device ?? null, stream, flags) < 0) {
      const err = lastError("virDomainOpenConsole");
      native.streamFree(stream);
      throw err;
    }
    return new ConsoleStream(stream, options.onCallbackError ?? warnOnCallbackError, options.highWaterMark);
  }

  override _read(): void {
    if (!this.#readingPaused) return;
    this.#readingPaused = false;
    this.#updateWatchedEvents();
    this.#readAvailable();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#pendingWrite = { chunk, offset: 0, done };
    this.#flushPendingWrite();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.#release("finish");
    this.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.#release(err ? "abort" : "finish");
    done(err);
  }

  #onEvents(events: number): void {
    if (events & StreamEvents.Readable) this.#readAvailable();
    if (events & StreamEvents.Writable) this.#flushPendingWrite();
    if (events & (StreamEvents.Error | StreamEvents.Hangup)) this.#endOfStream();
  }

  #readAvailable(): void {
    while (this.#stream !== null && !this.#readingPaused) {
      const received = native.streamRecv(this.#stream, this.#buffer, this.#buffer.length);
      if (received === WOULD_BLOCK) return;
      if (received === 0) {
        this.#endOfStream();
        return;
      }
      if (received < 0) {
        this.destroy(lastError("virStreamRecv"));
        return;
      }
      // Copy: the receive buffer is reused for the next chunk.
      if (!this.push(Buffer.from(this.#buffer.subarray(0, received)))) {
        this.#readingPaused = true;
        this.#updateWatchedEvents();
      }
    }
  }

  #flushPendingWrite(): void {
    const pending = this.#pendingWrite;
    if (!pending) return;
    while (this.#stream !== null && pending.offset < pending.chunk.length) {
      const rest = pending.chunk.subarray(pending.offset);
      const sent = native.streamSend(this.#stream, rest, rest.length);
      if (sent === WOULD_BLOCK) {
        this.#updateWatchedEvents(); // wait for WRITABLE
        return;
      }
      if (sent < 0) {
        this.#completeWrite(lastError("virStreamSend"));
        return;
      }
      pending.offset += sent;
    }
    this.#completeWrite(this.#stream === null ? new Error("the console is closed") : null);
  }

  #completeWrite(err: Error | null): void {
    const pending = this.#pendingWrite;
    this.#pendingWrite = null;
    this.#updateWatchedEvents();
    pending?.done(err);
  }

  #endOfStream(): void {
    if (this.#stream === null) return;
    this.#release("finish");
    this.push(null);
  }

  #watchedEvents(): number {
    let events = StreamEvents.Error | StreamEvents.Hangup;
    if (!this.#readingPaused) events |= StreamEvents.Readable;
    if (this.#pendingWrite) events |= StreamEvents.Writable;
    return events;
  }

  #updateWatchedEvents(): void {
    if (this.#stream !== null) native.streamEventUpdateCallback(this.#stream, this.#watchedEvents());
  }

  /** Stops watching, ends the libvirt stream and frees it; the trampolines go when libvirt lets go. */
  #release(mode: "finish" | "abort"): void {
    const stream = this.#stream;
    if (stream === null) return;
    this.#stream = null;
    native.streamEventRemoveCallback(stream);
    // Finishing a stream whose peer already hung up fails; abort is then the way to drop it.
    if (mode === "abort" || native.streamFinish(stream) < 0) native.streamAbort(stream);
    native.streamFree(stream);
    const pending = this.#pendingWrite;
    this.#pendingWrite = null;
    pending?.done(new Error("the console closed before the write completed"));
  }
}
