// Everything a guest printed on a console stream, and waiting for text to appear in it.
import type { Readable, Writable } from "node:stream";

/** How a console stream finished: a clean end of stream, an error, or a close without either. */
export type ConsoleFinish = { how: "end" } | { how: "error"; error: Error } | { how: "close" };

const TAIL_CHARS = 3_000;

export class ConsoleTranscript {
  /** Resolves once the stream is over, saying how. */
  readonly finished: Promise<ConsoleFinish>;
  #text = "";
  #over = false;
  readonly #listeners = new Set<() => void>();

  constructor(stream: Readable) {
    stream.on("data", (chunk: Buffer) => {
      this.#text += chunk.toString("latin1");
      this.#notify();
    });
    this.finished = new Promise((resolve) => {
      const finish = (result: ConsoleFinish) => {
        if (this.#over) return;
        this.#over = true;
        this.#notify();
        resolve(result);
      };
      stream.once("end", () => finish({ how: "end" }));
      stream.once("error", (error: Error) => finish({ how: "error", error }));
      stream.once("close", () => finish({ how: "close" }));
    });
  }

  get text(): string {
    return this.#text;
  }

  /** The last few thousand characters, for failure messages. */
  tail(): string {
    return this.#text.slice(-TAIL_CHARS);
  }

  /**
   * Resolves with the offset just past the first occurrence of `pattern` at or after `from`; rejects when
   * the stream ends without it or after `timeoutMs`.
   */
  waitFor(pattern: string, timeoutMs: number, from = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        stop();
        reject(new Error(`"${pattern}" ${why}; the console so far:\n${this.tail()}`));
      };
      const check = () => {
        const index = this.#text.indexOf(pattern, from);
        if (index >= 0) {
          stop();
          resolve(index + pattern.length);
        } else if (this.#over) {
          fail("never appeared: the console stream is over");
        }
      };
      const timer = setTimeout(() => fail(`did not appear within ${timeoutMs} ms`), timeoutMs);
      const stop = () => {
        clearTimeout(timer);
        this.#listeners.delete(check);
      };
      this.#listeners.add(check);
      check();
    });
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/** Types a line on a serial console (Enter is a carriage return there) and waits until it is sent. */
export function typeLine(stream: Writable, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(`${line}\r`, (err) => (err ? reject(err) : resolve()));
  });
}
