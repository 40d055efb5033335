import type { JsonObject } from "../json.js";
import { groupVersion } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import type { ChangeEvent } from "../storage/watch-history.js";

/**
 * Decodes a change once for all the watchers it fans out to: a write is delivered to every
 * watcher of its resource in one synchronous pass, so remembering the latest event's object
 * and serialised lines saves each watcher a parse and a stringify.
 * The object handed out is shared: readers must not mutate it.
 */
export class EventDecoder {
  #event: ChangeEvent | undefined;
  #type: ResourceType | undefined;
  #object: JsonObject | undefined;
  readonly #lines = new Map<string, string>();

  object(event: ChangeEvent, type: ResourceType): JsonObject {
    if (event !== this.#event || type !== this.#type || !this.#object) {
      const object = JSON.parse(event.data) as JsonObject;
      object.apiVersion = groupVersion(type);
      if (!type.builtin) type.applyDefaults(object);
      this.#event = event;
      this.#type = type;
      this.#object = object;
      this.#lines.clear();
    }
    return this.#object;
  }

  /** The watch line `{"type":…,"object":…}` for this event's object. */
  line(event: ChangeEvent, type: ResourceType, eventType: string): string {
    const object = this.object(event, type);
    let line = this.#lines.get(eventType);
    if (line === undefined) {
      line = `${JSON.stringify({ type: eventType, object })}\n`;
      this.#lines.set(eventType, line);
    }
    return line;
  }
}
