import type { Readable } from "node:stream";
import type { KubeObject, Status } from "../objects/kube-object.js";

export type WatchEvent<T> =
  | { type: "ADDED" | "MODIFIED" | "DELETED"; object: T }
  | { type: "BOOKMARK"; object: KubeObject }
  | { type: "ERROR"; object: Status };

/**
 * Splits a watch stream into events: one JSON object per line. A line that does not parse
 * means the stream is corrupt; it throws, and the caller re-watches.
 */
export async function* watchEvents<T>(stream: Readable): AsyncGenerator<WatchEvent<T>> {
  let pending = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream as AsyncIterable<string>) {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== "") yield parseEvent<T>(line);
      newline = pending.indexOf("\n");
    }
  }
  if (pending.trim() !== "") yield parseEvent<T>(pending);
}

function parseEvent<T>(line: string): WatchEvent<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`malformed watch event: ${line.slice(0, 200)}`, { cause: error });
  }
  const event = parsed as { type?: unknown; object?: unknown };
  if (typeof event.type !== "string" || !event.object || typeof event.object !== "object") {
    throw new Error(`malformed watch event: ${line.slice(0, 200)}`);
  }
  return event as WatchEvent<T>;
}
