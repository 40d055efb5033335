import { isJsonObject, type JsonValue } from "../json.js";

/**
 * Property names a JSON pointer may not walk through: reaching them on a plain JavaScript object
 * touches its prototype chain instead of document data.
 */
const FORBIDDEN_TOKENS = new Set(["__proto__", "constructor", "prototype"]);

export class JsonPointerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonPointerError";
  }
}

/** Splits an RFC 6901 pointer into unescaped reference tokens; `""` is the whole document. */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new JsonPointerError(`path ${JSON.stringify(pointer)} must start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      if (/~[^01]|~$/.test(raw)) {
        throw new JsonPointerError(`path ${JSON.stringify(pointer)} has an invalid "~" escape`);
      }
      const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (FORBIDDEN_TOKENS.has(token)) {
        throw new JsonPointerError(`path ${JSON.stringify(pointer)} may not reference "${token}"`);
      }
      return token;
    });
}

/** An array index token as RFC 6901 spells it: no sign, no leading zeros. */
export function arrayIndexOf(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

/**
 * The value a token names inside `container`, looking only at own properties and in-range
 * indices; undefined when there is none.
 */
export function childOf(container: JsonValue, token: string): JsonValue | undefined {
  if (Array.isArray(container)) {
    const index = arrayIndexOf(token);
    return index !== undefined && index < container.length ? container[index] : undefined;
  }
  if (isJsonObject(container) && Object.hasOwn(container, token)) return container[token];
  return undefined;
}

/** The value at `tokens`, or undefined when any step does not exist. */
export function resolveTokens(document: JsonValue, tokens: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = document;
  for (const token of tokens) {
    if (current === undefined) return undefined;
    current = childOf(current, token);
  }
  return current;
}
