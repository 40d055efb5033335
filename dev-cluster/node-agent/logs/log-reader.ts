import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { Readable } from "node:stream";
import { type Clock, sleep, wireTimeMillis } from "../../../runtime/index.js";
import { type LogStamp, readLogStamps, timeAtOffset } from "./log-stamps.js";

export interface LogReadOptions {
  follow: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
  /** While true, a follower waits for more; once false it drains what is left and ends. */
  isLive: () => boolean;
  clock: Clock;
  /** How often a follower looks for more (default 100 ms). */
  pollMs?: number;
}

const chunkBytes = 64 * 1024;

/** A container's log file as `kubectl logs` wants it (tail, since, timestamps, limit, follow). */
export function readLogFile(path: string, options: LogReadOptions): Readable {
  let closed = false;
  const stream = Readable.from(
    generateLog(path, options, () => closed),
    { objectMode: false },
  );
  stream.once("close", () => {
    closed = true;
  });
  return stream;
}

async function* generateLog(
  path: string,
  options: LogReadOptions,
  isClosed: () => boolean,
): AsyncGenerator<Buffer> {
  const fd = openSync(path, "r");
  try {
    let position = startOffset(fd, path, options);
    let remaining = options.limitBytes ?? Number.POSITIVE_INFINITY;
    const lines = options.timestamps ? new TimestampedLines(path) : undefined;
    const buffer = Buffer.alloc(chunkBytes);
    let draining = !options.follow;
    while (!isClosed() && remaining > 0) {
      const read = readSync(fd, buffer, 0, chunkBytes, position);
      if (read === 0) {
        if (draining) break;
        if (!options.isLive()) {
          draining = true; // one more read: what was written just before the end
          continue;
        }
        await sleep(options.clock, options.pollMs ?? 100);
        continue;
      }
      const bytes = Buffer.from(buffer.subarray(0, read));
      const output = lines ? lines.push(bytes, position, options.clock.now()) : bytes;
      position += read;
      if (output.length > 0) {
        const limited = output.subarray(0, remaining);
        remaining -= limited.length;
        yield limited;
      }
    }
    const rest = lines?.flush(options.clock.now());
    if (rest && rest.length > 0 && remaining > 0 && !isClosed()) yield rest.subarray(0, remaining);
  } finally {
    closeSync(fd);
  }
}

function startOffset(fd: number, path: string, options: LogReadOptions): number {
  const size = fstatSync(fd).size;
  let offset = 0;
  if (options.tailLines !== undefined) offset = tailOffset(fd, size, options.tailLines);
  if (options.sinceSeconds !== undefined) {
    const since = options.clock.now() - options.sinceSeconds * 1000;
    offset = Math.max(offset, sinceOffset(readLogStamps(path), since, size));
  }
  return offset;
}

/** Where the last `lines` lines start (a final line without newline counts as one). */
export function tailOffset(fd: number, size: number, lines: number): number {
  if (lines <= 0) return size;
  const buffer = Buffer.alloc(chunkBytes);
  let end = size;
  let newlines = 0;
  let skipFinalNewline = true;
  while (end > 0) {
    const start = Math.max(0, end - chunkBytes);
    const read = readSync(fd, buffer, 0, end - start, start);
    for (let index = read - 1; index >= 0; index--) {
      if (buffer[index] !== 0x0a) {
        skipFinalNewline = false;
        continue;
      }
      if (skipFinalNewline) {
        skipFinalNewline = false;
        continue;
      }
      newlines++;
      if (newlines === lines) return start + index + 1;
    }
    end = start;
  }
  return 0;
}

/** The first byte written at or after `since`, by the stamps (0 without stamps before it). */
function sinceOffset(stamps: readonly LogStamp[], since: number, size: number): number {
  let offset = 0;
  for (const stamp of stamps) {
    if (stamp.time >= since) return offset;
    offset = stamp.size;
  }
  return Math.min(offset, size);
}

/** Splits what is read into lines and prefixes each with its RFC 3339 time (kubectl --timestamps). */
class TimestampedLines {
  readonly #path: string;
  #stamps: LogStamp[];
  #partial = Buffer.alloc(0);
  #partialStart = 0;

  constructor(path: string) {
    this.#path = path;
    this.#stamps = readLogStamps(path);
  }

  push(bytes: Buffer, offset: number, now: number): Buffer {
    const data = this.#partial.length > 0 ? Buffer.concat([this.#partial, bytes]) : bytes;
    const dataStart = this.#partial.length > 0 ? this.#partialStart : offset;
    const out: Buffer[] = [];
    let lineStart = 0;
    for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a, lineStart)) {
      out.push(this.#prefix(dataStart + newline + 1, now), data.subarray(lineStart, newline + 1));
      lineStart = newline + 1;
    }
    this.#partial = Buffer.from(data.subarray(lineStart));
    this.#partialStart = dataStart + lineStart;
    return Buffer.concat(out);
  }

  flush(now: number): Buffer {
    if (this.#partial.length === 0) return this.#partial;
    const end = this.#partialStart + this.#partial.length;
    return Buffer.concat([this.#prefix(end, now), this.#partial, Buffer.from("\n")]);
  }

  #prefix(lineEnd: number, now: number): Buffer {
    let time = timeAtOffset(this.#stamps, lineEnd);
    if (time === undefined) {
      this.#stamps = readLogStamps(this.#path);
      time = timeAtOffset(this.#stamps, lineEnd) ?? now;
    }
    return Buffer.from(`${wireTimeMillis(time)} `);
  }
}
