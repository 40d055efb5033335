// Images pulled from OCI/Docker registries into a per-node cache, as kubelet and containerd would pull a
// pod's images: the node's mirror configuration decides where from (node-endpoints.ts), pull secrets
// authenticate, the pull policy decides whether the registry is asked at all, and what is handed out is
// the cached, checked, read-only unpacked file system with the facts the caller found in it once.
import type { Logger } from "pino";
import { credentialsForHost, DockerConfigError } from "./docker-config.js";
import { type CachedImageRecord, ImageCache, type NoFacts } from "./image-cache.js";
import { type ImageInspection, pullIntoCache } from "./image-pull.js";
import {
  formatImageReference,
  type ImageReference,
  manifestReference,
  parseImageReference,
} from "./image-reference.js";
import { fetchImageManifest, type ImageManifest, nodeArchitecture } from "./manifests.js";
import { nodeEndpoints } from "./node-endpoints.js";
import { OciImageError, ToolMissingError } from "./oci-image-error.js";
import { defaultPullPolicy, type PullPolicy } from "./pull-policy.js";
import { RegistryClient } from "./registry-client.js";
import type { RegistryEndpoint } from "./registry-endpoint.js";
import { TokenCache } from "./token-cache.js";

export interface RegistryPullerOptions {
  /** The node's image cache directory (image-cache.ts). */
  readonly cacheDirectory: string;
  /** After each pull, least recently used images are removed while the cache holds more. */
  readonly maxCacheBytes: number;
  /** The most one image may unpack to, counted while unpacking. Default 20 GiB. */
  readonly maxUnpackedBytes?: number;
  /** containerd's registry config_path (hosts.toml directories). */
  readonly hostsDirectory?: string;
  /** A registries.conf (version 2) file. */
  readonly registriesConf?: string;
  readonly log?: Logger;
  /** Called before each request to a registry endpoint (tests count blob GETs with it). */
  readonly onRegistryRequest?: (url: URL) => void;
  /** The platform architecture to pick from indexes (GOARCH spelling). Default: this node's. */
  readonly architecture?: string;
}

/** How one pull is asked for. */
export interface PullOptions {
  /** Kubernetes' imagePullPolicy; the default depends on the tag (Always for :latest or none). */
  readonly pullPolicy?: PullPolicy;
  /** `.dockerconfigjson` texts of the image pull secrets, in order. */
  readonly dockerConfigJsons?: readonly string[];
}

export interface PulledImage<Facts extends object> {
  /** The host directory holding the image's file system (read-only, shared: never write under it). */
  readonly root: string;
  readonly record: CachedImageRecord<Facts>;
}

interface ManifestPull {
  image: string;
  canonical: string;
  manifest: ImageManifest;
  client: RegistryClient;
}

export const DEFAULT_MAX_UNPACKED_BYTES = 20 * 1024 ** 3;

export class RegistryPuller<Facts extends object = NoFacts> {
  readonly #options: RegistryPullerOptions;
  readonly #inspection: ImageInspection<Facts>;
  readonly #cache: ImageCache<Facts>;
  readonly #tokens = new TokenCache();
  /** Pulls in progress by manifest digest: concurrent pulls of one image share one. */
  readonly #pulls = new Map<string, Promise<CachedImageRecord<Facts>>>();

  /** `inspection` finds the facts kept with each image (`{ inspect: async () => ({}) }` for none). */
  constructor(options: RegistryPullerOptions, inspection: ImageInspection<Facts>) {
    this.#options = options;
    this.#inspection = inspection;
    this.#cache = new ImageCache<Facts>(options.cacheDirectory);
  }

  /**
   * The image from the cache, or pulled into it. Throws an OciImageError (its reason says whose fault), a
   * ToolMissingError when a layer needs a program the host lacks, and the file system's own errors.
   */
  async pull(image: string, options: PullOptions = {}): Promise<PulledImage<Facts>> {
    const reference = parseImageReference(image);
    const canonical = formatImageReference(reference);
    const policy = options.pullPolicy ?? defaultPullPolicy(reference);
    await this.#cache.start();
    let record = await this.#cached(reference, canonical, policy === "Always");
    if (record === undefined && policy === "Never") {
      throw new OciImageError(
        "ErrImageNeverPull",
        image,
        `${image}: the image is not present on the node with pull policy of Never`,
      );
    }
    record =
      record === undefined
        ? await this.#pull(image, reference, canonical, options)
        : await this.#cache.touch(record, canonical);
    return { root: this.#cache.rootOf(record.digest), record };
  }

  /** The cached image that may be used without asking a registry, if any. */
  async #cached(
    reference: ImageReference,
    canonical: string,
    always: boolean,
  ): Promise<CachedImageRecord<Facts> | undefined> {
    if (reference.digest !== undefined) return this.#cache.byDigest(reference.digest);
    return always ? undefined : this.#cache.byReference(canonical);
  }

  #client(image: string, endpoint: RegistryEndpoint, options: PullOptions): RegistryClient {
    let credentials: ReturnType<typeof credentialsForHost>;
    try {
      // A mirror's own credentials first; else the image's registry's, which is what users name in
      // `kubectl create secret docker-registry --docker-server` (the kubelet matches them so too).
      const secrets = options.dockerConfigJsons ?? [];
      credentials =
        credentialsForHost(secrets, endpoint.credentialHost) ??
        credentialsForHost(secrets, parseImageReference(image).registry);
    } catch (error) {
      if (!(error instanceof DockerConfigError)) throw error;
      throw new OciImageError("ImagePullFailed", image, `${image}: ${error.message}`, { cause: error });
    }
    const { onRegistryRequest, log } = this.#options;
    return new RegistryClient({
      endpoint,
      tokens: this.#tokens,
      ...(credentials === undefined ? {} : { credentials }),
      onRequest: (url) => {
        log?.debug({ url: `${url.origin}${url.pathname}` }, "registry request");
        onRegistryRequest?.(url);
      },
    });
  }

  /** Resolves the reference at the endpoints in order and pulls from the first that serves it. */
  async #pull(
    image: string,
    reference: ImageReference,
    canonical: string,
    options: PullOptions,
  ): Promise<CachedImageRecord<Facts>> {
    const byTag = reference.digest === undefined;
    const endpoints = (await nodeEndpoints(image, reference, this.#options)).filter(
      (endpoint) => !byTag || (endpoint.canResolve && endpoint.servesTags),
    );
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      const client = this.#client(image, endpoint, options);
      try {
        const manifest = await fetchImageManifest(
          client,
          manifestReference(reference),
          this.#options.architecture ?? nodeArchitecture(),
        );
        const pulled = await this.#sharedPull({ image, canonical, manifest, client });
        if (byTag) await this.#cache.forgetReference(canonical, pulled.digest);
        return await this.#cache.touch(pulled, canonical, manifest.digests);
      } catch (error) {
        // The image's own faults and the node's are the same at every endpoint: only others fall back.
        if (error instanceof OciImageError || error instanceof ToolMissingError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        failures.push(`${endpoint.origin}: ${message}`);
        this.#options.log?.info(
          { image, endpoint: endpoint.origin, err: error },
          "pull from endpoint failed",
        );
      }
    }
    if (failures.length === 0) failures.push("no configured endpoint may resolve tags");
    throw new OciImageError("ImagePullFailed", image, `${image}: ${failures.join("; ")}`);
  }

  async #sharedPull(pull: ManifestPull): Promise<CachedImageRecord<Facts>> {
    const { digest } = pull.manifest;
    const cached = await this.#cache.byDigest(digest);
    if (cached !== undefined) return cached;
    let pulling = this.#pulls.get(digest);
    if (pulling === undefined) {
      pulling = this.#pullAndCollect(pull).finally(() => this.#pulls.delete(digest));
      this.#pulls.set(digest, pulling);
    }
    return pulling;
  }

  async #pullAndCollect(pull: ManifestPull): Promise<CachedImageRecord<Facts>> {
    const { log, maxCacheBytes, maxUnpackedBytes = DEFAULT_MAX_UNPACKED_BYTES } = this.#options;
    const record = await pullIntoCache({
      image: pull.image,
      reference: pull.canonical,
      manifest: pull.manifest,
      client: pull.client,
      cache: this.#cache,
      maxUnpackedBytes,
      inspection: this.#inspection,
    });
    log?.info({ image: pull.image, digest: record.digest, bytes: record.size }, "image pulled");
    const removed = await this.#cache.collect(maxCacheBytes, record.digest);
    if (removed.length > 0) log?.info({ removed }, "least recently used images removed from the cache");
    return record;
  }
}
