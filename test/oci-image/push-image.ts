// Pushes a test image to a registry over plain HTTP with the distribution API: blobs by a
// monolithic upload (POST then PUT ?digest=), skipped when a HEAD finds them, then the manifests,
// children before the index that lists them. Registries behind htpasswd get HTTP Basic.
import type { Blob } from "./layer.js";
import type { Image } from "./oci-image.js";
import {
  headerValue,
  type RegistryRequest,
  type RegistryResponse,
  sendRegistryRequest,
} from "./registry-request.js";

export { containerDiskImage, kernelBootImage } from "./container-disk-image.js";

export interface RegistryCredentials {
  readonly username: string;
  readonly password: string;
}

export interface PushImageOptions {
  /** host:port of a plain-HTTP registry, e.g. "127.0.0.1:5000" (an http:// URL works too). */
  readonly registry: string;
  readonly repository: string;
  /** Without a tag the image is pushed by digest only. */
  readonly tag?: string;
  readonly image: Image;
  readonly credentials?: RegistryCredentials;
}

export interface PushedImage {
  /** Digest of the top manifest or index, as the registry confirmed it. */
  readonly digest: string;
  readonly mediaType: string;
  /** `<registry>/<repository>@<digest>`: a pull reference that pins the pushed bytes. */
  readonly reference: string;
  readonly uploadedBlobs: number;
  /** Blobs the registry already had (found by HEAD). */
  readonly existingBlobs: number;
}

export type PushFailure =
  | "Unauthorized"
  | "UnsupportedAuth"
  | "RegistryUnavailable"
  | "BlobUploadFailed"
  | "ManifestRejected"
  | "DigestMismatch";

export class PushImageError extends Error {
  override readonly name = "PushImageError";
  constructor(
    readonly reason: PushFailure,
    message: string,
    readonly details: { status?: number; codes?: readonly string[] } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export async function pushImage(options: PushImageOptions): Promise<PushedImage> {
  const base = new URL(options.registry.includes("://") ? options.registry : `http://${options.registry}`);
  const authorization = await negotiateAuth(base, options.credentials);
  const push = new Push(base, options.repository, authorization);
  const digest = await push.image(options.image, options.tag ?? options.image.digest);
  return {
    digest,
    mediaType: options.image.mediaType,
    reference: `${base.host}/${options.repository}@${digest}`,
    uploadedBlobs: push.uploaded,
    existingBlobs: push.existing,
  };
}

/**
 * Asks `GET /v2/` first, as docker does: a request body cannot be replayed after a 401, so the
 * credentials must be known before the first upload.
 */
async function negotiateAuth(base: URL, credentials: RegistryCredentials | undefined) {
  const probe = await send({ method: "GET", url: new URL("/v2/", base) });
  if (probe.status === 200) return undefined;
  if (probe.status !== 401) {
    throw registryError("RegistryUnavailable", `GET ${base.host}/v2/ answered ${probe.status}`, probe);
  }
  const challenge = headerValue(probe, "www-authenticate") ?? "";
  if (!/^basic\b/i.test(challenge)) {
    throw new PushImageError(
      "UnsupportedAuth",
      `${base.host} asks for "${challenge}"; only Basic is supported`,
    );
  }
  if (!credentials) throw registryError("Unauthorized", `${base.host} needs credentials`, probe);
  const token = Buffer.from(`${credentials.username}:${credentials.password}`, "utf8").toString("base64");
  const authorization = `Basic ${token}`;
  const check = await send({ method: "GET", url: new URL("/v2/", base), headers: { authorization } });
  if (check.status !== 200) {
    throw registryError("Unauthorized", `${base.host} refused user ${credentials.username}`, check);
  }
  return authorization;
}

class Push {
  uploaded = 0;
  existing = 0;
  readonly #done = new Set<string>();

  constructor(
    readonly base: URL,
    readonly repository: string,
    readonly authorization: string | undefined,
  ) {}

  /** Pushes the image's blobs and manifests; returns the digest the registry gave the top one. */
  async image(image: Image, reference: string): Promise<string> {
    if (image.kind === "manifest") {
      for (const blob of [image.config, ...image.layers]) await this.blob(blob);
    } else {
      for (const child of image.manifests) await this.image(child, child.digest);
    }
    return this.manifest(image, reference);
  }

  async blob(blob: Blob): Promise<void> {
    if (this.#done.has(blob.digest)) return;
    const head = await this.send({ method: "HEAD", url: this.url(`blobs/${blob.digest}`) });
    if (head.status === 200) {
      this.existing += 1;
      this.#done.add(blob.digest);
      return;
    }
    const started = await this.send({ method: "POST", url: this.url("blobs/uploads/") });
    const location = headerValue(started, "location");
    if (started.status !== 202 || !location) {
      throw registryError("BlobUploadFailed", `starting the upload of ${blob.digest} failed`, started);
    }
    const target = new URL(location, this.base);
    target.searchParams.set("digest", blob.digest);
    const body = { content: blob.content, size: blob.size, contentType: "application/octet-stream" };
    const put = await this.send({ method: "PUT", url: target, body });
    if (put.status !== 201) throw registryError("BlobUploadFailed", `uploading ${blob.digest} failed`, put);
    this.uploaded += 1;
    this.#done.add(blob.digest);
  }

  async manifest(image: Image, reference: string): Promise<string> {
    const body = { content: image.bytes, size: image.size, contentType: image.mediaType };
    const put = await this.send({ method: "PUT", url: this.url(`manifests/${reference}`), body });
    if (put.status !== 201) {
      throw registryError("ManifestRejected", `${this.repository}:${reference} was refused`, put);
    }
    const digest = headerValue(put, "docker-content-digest") ?? image.digest;
    if (digest !== image.digest) {
      throw new PushImageError("DigestMismatch", `registry stored ${digest}, pushed ${image.digest}`);
    }
    return digest;
  }

  url(path: string): URL {
    return new URL(`/v2/${this.repository}/${path}`, this.base);
  }

  send(req: RegistryRequest): Promise<RegistryResponse> {
    const headers = this.authorization ? { ...req.headers, authorization: this.authorization } : req.headers;
    return send({ ...req, ...(headers ? { headers } : {}) });
  }
}

async function send(req: RegistryRequest): Promise<RegistryResponse> {
  try {
    return await sendRegistryRequest(req);
  } catch (error) {
    throw new PushImageError(
      "RegistryUnavailable",
      `${req.method} ${req.url.href} failed`,
      {},
      { cause: error },
    );
  }
}

/** The registry's error codes (`{"errors":[{"code":...}]}`) go into the message and the details. */
function registryError(reason: PushFailure, what: string, response: RegistryResponse): PushImageError {
  const codes = errorCodes(response.body);
  const suffix = codes.length > 0 ? ` (${codes.join(", ")})` : "";
  return new PushImageError(reason, `${what}: HTTP ${response.status}${suffix}`, {
    status: response.status,
    codes,
  });
}

function errorCodes(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { errors?: { code?: unknown }[] };
    return (parsed.errors ?? []).map((error) => String(error.code));
  } catch {
    return [];
  }
}
