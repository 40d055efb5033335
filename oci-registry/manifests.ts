// Fetching an image's manifest: all four manifest types accepted, the Content-Type checked against the
// body's mediaType, the digest computed over the exact bytes received (and compared with the digest asked
// for and with Docker-Content-Digest), an index or manifest list followed to its linux/<node arch> entry
// (indexes may nest), sizes bounded.
import { createHash } from "node:crypto";
import type { RegistryClient } from "./registry-client.js";
import { readLimited } from "./registry-http.js";

export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
export const OCI_INDEX = "application/vnd.oci.image.index.v1+json";
export const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
export const DOCKER_MANIFEST_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
const ACCEPT = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_MANIFEST_LIST].join(", ");

/** distribution's own limit for manifests it accepts. */
export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
const MAX_INDEX_DEPTH = 4;

export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
}

export interface ImageManifest {
  /** The digest of the image manifest itself (the cache key). */
  readonly digest: string;
  /** Every digest met on the way (the index's, then the manifest's). */
  readonly digests: readonly string[];
  readonly layers: readonly Descriptor[];
}

/** The registry sent something that is not a usable manifest; the message says what. */
export class ManifestError extends Error {
  override readonly name = "ManifestError";
}

const DIGEST = /^sha256:[a-f0-9]{64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function descriptorOf(value: unknown, where: string): Descriptor {
  if (!isRecord(value)) throw new ManifestError(`${where} is not a descriptor`);
  const { mediaType, digest, size } = value;
  if (typeof mediaType !== "string") throw new ManifestError(`${where} has no mediaType`);
  if (typeof digest !== "string" || !DIGEST.test(digest))
    throw new ManifestError(`${where} has no sha256 digest`);
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
    throw new ManifestError(`${where} has no valid size`);
  return { mediaType, digest, size };
}

/** Node's process.arch in Go's GOARCH spelling, which platform descriptors use. */
export function nodeArchitecture(): string {
  const arch: Record<string, string> = {
    x64: "amd64",
    arm64: "arm64",
    arm: "arm",
    ppc64: "ppc64le",
    s390x: "s390x",
  };
  return arch[process.arch] ?? process.arch;
}

interface FetchedManifest {
  digest: string;
  mediaType: string;
  body: Record<string, unknown>;
}

async function fetchOne(client: RegistryClient, reference: string): Promise<FetchedManifest> {
  const response = await client.get(`manifests/${reference}`, ACCEPT);
  const declaredLength = Number(response.headers["content-length"] ?? "0");
  if (declaredLength > MANIFEST_MAX_BYTES) {
    response.body.destroy();
    throw new ManifestError(`the manifest is ${declaredLength} bytes, more than ${MANIFEST_MAX_BYTES}`);
  }
  const bytes = await readLimited(response.body, MANIFEST_MAX_BYTES, "the manifest").catch((error: Error) => {
    throw new ManifestError(error.message, { cause: error });
  });
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (DIGEST.test(reference) && digest !== reference) {
    throw new ManifestError(`the manifest asked for as ${reference} has digest ${digest}`);
  }
  const header = response.headers["docker-content-digest"];
  if (typeof header === "string" && header.startsWith("sha256:") && header !== digest) {
    throw new ManifestError(`the registry says the manifest is ${header} but its bytes are ${digest}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new ManifestError("the manifest is not JSON", { cause: error });
  }
  if (!isRecord(body)) throw new ManifestError("the manifest is not a JSON object");
  const contentType = (response.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
  const mediaType = typeof body.mediaType === "string" ? body.mediaType : contentType;
  if (typeof body.mediaType === "string" && body.mediaType !== contentType) {
    throw new ManifestError(
      `the manifest's mediaType ${body.mediaType} differs from its Content-Type ${contentType}`,
    );
  }
  return { digest, mediaType, body };
}

function pickPlatform(index: Record<string, unknown>, architecture: string): Descriptor {
  const entries = Array.isArray(index.manifests) ? index.manifests : [];
  const known = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_MANIFEST_LIST];
  const offered: string[] = [];
  for (const [position, entry] of entries.entries()) {
    if (!isRecord(entry) || !known.includes(String(entry.mediaType))) continue;
    const platform = isRecord(entry.platform) ? entry.platform : {};
    if (isRecord(entry.platform)) offered.push(`${String(platform.os)}/${String(platform.architecture)}`);
    if (platform.os === "linux" && platform.architecture === architecture) {
      return descriptorOf(entry, `manifests[${position}]`);
    }
  }
  // A nested index without a platform may hold the image (test/oci-image and some builders write these).
  const nested = entries.findIndex(
    (entry) =>
      isRecord(entry) &&
      !isRecord(entry.platform) &&
      [OCI_INDEX, DOCKER_MANIFEST_LIST].includes(String(entry.mediaType)),
  );
  if (nested >= 0) return descriptorOf(entries[nested], `manifests[${nested}]`);
  throw new ManifestError(
    `the index has no linux/${architecture} image (it has ${offered.length === 0 ? "none" : offered.join(", ")})`,
  );
}

/** The image manifest for `reference` (tag or digest), through indexes, for linux/`architecture`. */
export async function fetchImageManifest(
  client: RegistryClient,
  reference: string,
  architecture: string = nodeArchitecture(),
): Promise<ImageManifest> {
  const digests: string[] = [];
  let next = reference;
  for (let depth = 0; depth <= MAX_INDEX_DEPTH; depth++) {
    const manifest = await fetchOne(client, next);
    digests.push(manifest.digest);
    if (manifest.mediaType === OCI_INDEX || manifest.mediaType === DOCKER_MANIFEST_LIST) {
      next = pickPlatform(manifest.body, architecture).digest;
      continue;
    }
    if (manifest.mediaType !== OCI_MANIFEST && manifest.mediaType !== DOCKER_MANIFEST) {
      throw new ManifestError(`unsupported manifest type ${JSON.stringify(manifest.mediaType)}`);
    }
    if (manifest.body.schemaVersion !== 2) throw new ManifestError("the manifest's schemaVersion is not 2");
    if (!Array.isArray(manifest.body.layers)) throw new ManifestError("the manifest has no layers");
    const layers = manifest.body.layers.map((layer, position) => descriptorOf(layer, `layers[${position}]`));
    return { digest: manifest.digest, digests, layers };
  }
  throw new ManifestError(`indexes nest more than ${MAX_INDEX_DEPTH} deep`);
}
