// Downloading a layer blob into a file, checked against its descriptor: never more bytes than the size it
// states, and the sha256 of exactly what was written must be its digest. Only a checked blob is unpacked.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Descriptor } from "./manifests.js";
import type { RegistryClient } from "./registry-client.js";

/** The blob the registry sent is not the one the manifest names. */
export class BlobMismatchError extends Error {
  override readonly name = "BlobMismatchError";
}

export async function downloadBlob(
  client: RegistryClient,
  descriptor: Descriptor,
  file: string,
): Promise<void> {
  const response = await client.get(`blobs/${descriptor.digest}`);
  const hash = createHash("sha256");
  let received = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > descriptor.size) {
        done(
          new BlobMismatchError(
            `the blob ${descriptor.digest} is larger than the ${descriptor.size} bytes its manifest states`,
          ),
        );
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(response.body, check, createWriteStream(file, { flags: "wx", mode: 0o600 }));
  if (received !== descriptor.size) {
    throw new BlobMismatchError(
      `the blob ${descriptor.digest} has ${received} bytes, its manifest states ${descriptor.size}`,
    );
  }
  const digest = `sha256:${hash.digest("hex")}`;
  if (digest !== descriptor.digest) {
    throw new BlobMismatchError(`the blob ${descriptor.digest} the registry sent has digest ${digest}`);
  }
}
