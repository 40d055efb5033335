/**
 * The hash that names a pod template revision: a ReplicaSet's `pod-template-hash` label and a
 * DaemonSet pod's `controller-revision-hash`. Like kube, a 32-bit FNV-1a over the template
 * (here its canonical JSON, keys sorted) and the collision count, written with kube's safe
 * alphabet (no vowels, so no words) — stable across restarts and processes.
 */
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789";

export function templateHash(template: unknown, collisionCount?: number): string {
  let hash = fnv1a(0x811c9dc5, Buffer.from(canonicalJson(template), "utf8"));
  if (collisionCount !== undefined && collisionCount > 0) {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32LE(collisionCount >>> 0);
    hash = fnv1a(hash, bytes);
  }
  return safeEncode(String(hash));
}

function fnv1a(seed: number, bytes: Uint8Array): number {
  let hash = seed;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function safeEncode(text: string): string {
  let encoded = "";
  for (let i = 0; i < text.length; i++) encoded += safeAlphabet[text.charCodeAt(i) % safeAlphabet.length];
  return encoded;
}

/**
 * JSON with object keys sorted and null or undefined members left out, so equal values always
 * print the same: Go clients send `creationTimestamp: null` in pod templates (kubectl rollout
 * undo does), which means the same as no field.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, child]) => child !== undefined && child !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Whether two pod templates are the same revision, as their hash sees them: key order ignored
 * and null members the same as absent ones (unlike plain JSON equality), for the reason above.
 */
export function sameTemplate(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
