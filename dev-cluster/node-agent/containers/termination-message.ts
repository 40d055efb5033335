// A container's termination message, as kubelet gives it: the file at `terminationMessagePath` (default
// /dev/termination-log) is a fresh empty file of the node's for each instance, mapped into the container
// like a volume mount; when the container ends its first 4096 bytes become state.terminated.message.
// With `terminationMessagePolicy: FallbackToLogsOnError` a failed container that left the file empty gets
// the tail of its log instead (its last 80 lines, at most their last 2048 bytes).
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Frozen } from "../../../runtime/index.js";
import type { Container } from "../kinds.js";

export const DEFAULT_TERMINATION_MESSAGE_PATH = "/dev/termination-log";
/** kubelet's bound on what it reads of the file. */
export const MAX_TERMINATION_MESSAGE_BYTES = 4096;
/** kubelet's bounds on the log fallback. */
export const MAX_FALLBACK_LOG_LINES = 80;
export const MAX_FALLBACK_LOG_BYTES = 2048;

/** The container path of the message file (an empty path is the default, as API defaulting makes it). */
export function terminationMessagePath(container: Frozen<Container>): string {
  return container.terminationMessagePath || DEFAULT_TERMINATION_MESSAGE_PATH;
}

/** The node's file behind it: one per container, emptied before each instance starts. */
export function terminationMessageFile(podDir: string, container: string): string {
  return join(podDir, "containers", container, "termination-log");
}

export function prepareTerminationMessageFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "", { mode: 0o666 });
}

export interface EndedContainer {
  readonly spec: Frozen<Container> | undefined;
  readonly file: string;
  readonly logPath: string;
  readonly exitCode: number;
}

/** What state.terminated.message says for an ended instance; undefined for nothing. */
export function readTerminationMessage(ended: EndedContainer): string | undefined {
  const message = readHead(ended.file, MAX_TERMINATION_MESSAGE_BYTES);
  if (message) return message;
  if (ended.spec?.terminationMessagePolicy !== "FallbackToLogsOnError" || ended.exitCode === 0)
    return undefined;
  return logTail(ended.logPath) || undefined;
}

function readHead(file: string, limit: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return "";
  }
  try {
    const buffer = Buffer.alloc(limit);
    const length = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The last MAX_FALLBACK_LOG_LINES lines of the log, then the last MAX_FALLBACK_LOG_BYTES bytes of those. */
function logTail(logPath: string): string {
  let fd: number;
  try {
    fd = openSync(logPath, "r");
  } catch {
    return "";
  }
  try {
    const size = fstatSync(fd).size;
    // 80 lines fit in any amount; reading a bounded window from the end is enough for the byte limit,
    // as only the last 2048 bytes of the lines are kept.
    const window = Math.min(size, MAX_FALLBACK_LOG_BYTES + 1);
    const buffer = Buffer.alloc(window);
    const length = readSync(fd, buffer, 0, window, size - window);
    let text = buffer.subarray(0, length);
    const body = text.at(-1) === 0x0a ? text.subarray(0, -1) : text;
    let newlines = 0;
    for (let index = body.length - 1; index >= 0; index--) {
      if (body[index] !== 0x0a) continue;
      if (++newlines === MAX_FALLBACK_LOG_LINES) {
        text = text.subarray(index + 1);
        break;
      }
    }
    return text.subarray(Math.max(0, text.length - MAX_FALLBACK_LOG_BYTES)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
