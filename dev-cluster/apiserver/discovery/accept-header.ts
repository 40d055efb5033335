/** One media range of an HTTP Accept header, e.g. `application/json;g=apidiscovery.k8s.io;v=v2`. */
export interface MediaRange {
  /** Lower-cased `type/subtype`. */
  mediaType: string;
  /** Parameters other than `q`; names lower-cased, values as sent (quotes removed). */
  params: Record<string, string>;
  quality: number;
}

function parseMediaRange(text: string): MediaRange | undefined {
  const [typePart, ...paramParts] = text.split(";");
  const mediaType = typePart?.trim().toLowerCase() ?? "";
  if (!mediaType.includes("/")) return undefined;
  const params: Record<string, string> = {};
  let quality = 1;
  for (const part of paramParts) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim().toLowerCase();
    const value = part
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (name === "q") {
      const parsed = Number(value);
      quality = Number.isFinite(parsed) ? parsed : 0;
    } else {
      params[name] = value;
    }
  }
  return { mediaType, params, quality };
}

/**
 * The media ranges of an Accept header, most preferred first (by `q`, then by the order the
 * client wrote them; kubectl relies on that order). Ranges with `q=0` are dropped.
 */
export function parseAcceptHeader(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  return accept
    .split(",")
    .map(parseMediaRange)
    .filter((range): range is MediaRange => range !== undefined && range.quality > 0)
    .map((range, index) => ({ range, index }))
    .sort((a, b) => b.range.quality - a.range.quality || a.index - b.index)
    .map(({ range }) => range);
}

/** True when the range accepts a plain JSON body (`application/json`, `application/*`, `*\/*`). */
export function acceptsPlainJson(range: MediaRange): boolean {
  const plainType = ["application/json", "application/*", "*/*"].includes(range.mediaType);
  return plainType && range.params.as === undefined;
}
