// The test guest as examples/vm-tiny.yaml uses it (publish-to-registry.ts's layout), with a file of
// random bytes added: the layer's bytes and so the image's digest are new, and a node has nothing of
// it cached yet. The same bytes under a new name would be found in the cache by digest, not pulled.
import { randomBytes } from "node:crypto";
import { publishTestGuest, type TestGuestFiles } from "../test/guest/publish-to-registry.js";
import type { PushedImage } from "../test/oci-image/index.js";

export function publishUniqueTestGuest(
  guest: TestGuestFiles,
  options: { registry: string; repository: string; tag: string },
): Promise<PushedImage & { layerBytes: number }> {
  const nonce = { path: "nonce", type: "file", content: randomBytes(32), uid: 107, gid: 107 } as const;
  return publishTestGuest(guest, { ...options, extraEntries: [nonce] });
}
