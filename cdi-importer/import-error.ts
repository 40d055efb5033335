/**
 * Why an import cannot succeed, in one line: what the pod's termination message (and so the
 * DataVolume's Running condition) shows. Anything else thrown is a bug or a fault of the node and is
 * reported with its own message the same way.
 */
export class ImportError extends Error {
  override readonly name = "ImportError";
}

/** The error as one line of at most `limit` characters (a termination message is read up to 4096 bytes). */
export function oneLineReason(error: unknown, limit = 2048): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s*\n\s*/g, "; ").trim() || "the import failed";
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}
