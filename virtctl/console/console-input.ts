/**
 * What the user types, for the life of `virtctl console` (across reconnections): the escape
 * byte Ctrl+] (0x1d, as KubeVirt's) ends the console wherever it falls in a read, the bytes before
 * it still sent; everything else goes to the connected session, or is dropped while there is none
 * (keys typed while the VM restarts are not replayed into a booting guest). The end of stdin ends
 * nothing: the console lasts until its socket closes (`virtctl console vm < /dev/null > log`).
 */
import type { Readable } from "node:stream";

/** Ctrl+] */
export const ESCAPE_BYTE = 0x1d;

export class ConsoleInput {
  /** Resolves when the user pressed Ctrl+]. */
  readonly escaped: Promise<void>;
  readonly #stdin: Readable;
  #sink: ((chunk: Buffer) => void) | undefined;
  #escape!: () => void;
  #hasEscaped = false;

  constructor(stdin: Readable) {
    this.#stdin = stdin;
    this.escaped = new Promise((resolve) => {
      this.#escape = resolve;
    });
    stdin.on("data", (chunk: Buffer | string) =>
      this.#read(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)),
    );
    // A read error (a terminal gone) is the end of input, not of the console.
    stdin.on("error", () => undefined);
  }

  /** Sends what is typed to `sink` until the returned function is called. */
  attach(sink: (chunk: Buffer) => void): () => void {
    this.#sink = sink;
    return () => {
      if (this.#sink === sink) this.#sink = undefined;
      this.resume();
    };
  }

  /** Backpressure: stop reading while the connection has too much unsent. */
  pause(): void {
    this.#stdin.pause();
  }

  resume(): void {
    if (!this.#hasEscaped) this.#stdin.resume();
  }

  /** Stops reading stdin for good, so that it keeps the process alive no longer. */
  close(): void {
    this.#sink = undefined;
    this.#stdin.pause();
    this.#stdin.removeAllListeners("data");
    if ("unref" in this.#stdin && typeof this.#stdin.unref === "function") this.#stdin.unref();
  }

  #read(chunk: Buffer): void {
    if (this.#hasEscaped) return;
    const escapeAt = chunk.indexOf(ESCAPE_BYTE);
    const before = escapeAt < 0 ? chunk : chunk.subarray(0, escapeAt);
    if (before.length > 0) this.#sink?.(before);
    if (escapeAt >= 0) {
      this.#hasEscaped = true;
      this.#escape();
    }
  }
}
