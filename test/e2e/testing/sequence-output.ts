// A known stream of guest console output, checked byte for byte as it arrives: the test guest's
// busybox `seq -w 1 COUNT` prints COUNT zero-padded numbers, one a line, and its serial tty turns
// each "\n" into "\r\n". Every byte is compared with what it must be, so a lost, repeated or
// reordered byte anywhere is caught, and where it happened is said; the whole stream is never kept.
import type { Readable } from "node:stream";

/** The guest command that prints `count` lines. */
export function sequenceCommand(count: number): string {
  return `seq -w 1 ${count}`;
}

/** Lines generated at a time for the comparison window. */
const LINES_PER_WINDOW = 8192;

export interface SequenceResult {
  /** Bytes of the sequence received (all of them, when complete). */
  bytes: number;
  /** When its first and last byte arrived (performance.now()). */
  firstByteAt: number;
  lastByteAt: number;
  /** The longest pause between two chunks of the sequence, ms. */
  longestGapMs: number;
}

export class SequenceOutput {
  readonly count: number;
  /** Bytes the sequence takes on the console. */
  readonly totalBytes: number;
  /** Resolves once every byte arrived as expected; rejects at the first wrong byte or the stream's end. */
  readonly complete: Promise<SequenceResult>;
  readonly #width: number;
  readonly #firstLine: string;
  #before = "";
  #started = false;
  #received = 0;
  #window = Buffer.alloc(0);
  #windowAt = 0;
  #nextLine = 1;
  #firstByteAt = 0;
  #lastChunkAt = 0;
  #longestGapMs = 0;
  #settle!: { resolve: (result: SequenceResult) => void; reject: (error: Error) => void };
  #settled = false;
  readonly #onData = (chunk: Buffer) => this.#feed(chunk);
  readonly #onEnd = () =>
    this.#fail(new Error(`the console ended after ${this.#received} bytes of the sequence`));
  readonly #stream: Readable;

  /** Watches `stream` (a console's output) from now on for the sequence of `count` lines. */
  constructor(stream: Readable, count: number) {
    this.count = count;
    this.#width = String(count).length;
    this.totalBytes = count * (this.#width + 2);
    this.#firstLine = `${this.#line(1)}\r\n`;
    this.#stream = stream;
    this.complete = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Whoever awaits `complete` sees a failure; one nobody awaits (after stop()) is no crash.
    this.complete.catch(() => undefined);
    stream.on("data", this.#onData);
    stream.once("end", this.#onEnd);
  }

  /** Bytes of the sequence so far. */
  get received(): number {
    return this.#received;
  }

  /** Stops watching (the result, if any, stays). */
  stop(): void {
    this.#stream.removeListener("data", this.#onData);
    this.#stream.removeListener("end", this.#onEnd);
    this.#fail(new Error(`stopped after ${this.#received} of ${this.totalBytes} bytes`));
  }

  #line(n: number): string {
    return String(n).padStart(this.#width, "0");
  }

  #feed(chunk: Buffer): void {
    if (this.#settled) return;
    const now = performance.now();
    let data = chunk;
    if (!this.#started) {
      // The typed command's echo comes first; the sequence starts at its first line.
      this.#before += chunk.toString("latin1");
      const at = this.#before.indexOf(this.#firstLine);
      if (at < 0) {
        this.#before = this.#before.slice(-this.#firstLine.length);
        return;
      }
      data = Buffer.from(this.#before.slice(at), "latin1");
      this.#before = "";
      this.#started = true;
      this.#firstByteAt = now;
      this.#lastChunkAt = now;
    }
    this.#longestGapMs = Math.max(this.#longestGapMs, now - this.#lastChunkAt);
    this.#lastChunkAt = now;
    let offset = 0;
    while (offset < data.length && this.#received < this.totalBytes) {
      if (this.#windowAt === this.#window.length) this.#nextWindow();
      const length = Math.min(data.length - offset, this.#window.length - this.#windowAt);
      const got = data.subarray(offset, offset + length);
      const want = this.#window.subarray(this.#windowAt, this.#windowAt + length);
      if (!got.equals(want)) {
        this.#mismatch(got, want);
        return;
      }
      offset += length;
      this.#windowAt += length;
      this.#received += length;
    }
    if (this.#received === this.totalBytes) {
      this.#settled = true;
      this.#stream.removeListener("data", this.#onData);
      this.#stream.removeListener("end", this.#onEnd);
      this.#settle.resolve({
        bytes: this.#received,
        firstByteAt: this.#firstByteAt,
        lastByteAt: now,
        longestGapMs: this.#longestGapMs,
      });
    }
  }

  #nextWindow(): void {
    const last = Math.min(this.count, this.#nextLine + LINES_PER_WINDOW - 1);
    let text = "";
    for (let n = this.#nextLine; n <= last; n++) text += `${this.#line(n)}\r\n`;
    this.#nextLine = last + 1;
    this.#window = Buffer.from(text, "latin1");
    this.#windowAt = 0;
  }

  #mismatch(got: Buffer, want: Buffer): void {
    let index = 0;
    while (index < got.length && got[index] === want[index]) index++;
    const at = this.#received + index;
    const line = Math.floor(at / (this.#width + 2)) + 1;
    const show = (bytes: Buffer) => JSON.stringify(bytes.subarray(index, index + 40).toString("latin1"));
    this.#fail(
      new Error(
        `byte ${at} of the sequence (line ${line}) is wrong: got ${show(got)}, expected ${show(want)}`,
      ),
    );
  }

  #fail(error: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settle.reject(error);
  }
}
