// containerDisk and kernelBoot images pulled from OCI/Docker registries into a per-node cache, as kubelet
// and containerd would pull a launcher pod's images: the node's mirror configuration decides where from
// (node-endpoints.ts), pull secrets authenticate, the pull policy decides whether the registry is asked
// at all, and what is served is the cached, checked, read-only unpacked file system.
import type { Logger } from "pino";
import { HostToolMissingError } from "../../storage/host-commands.js";
import {
  ContainerDiskError,
  type ContainerDiskImage,
  type ContainerDiskRequest,
  type ContainerDiskSource,
} from "../container-disk-source.js";
import { chooseDisk } from "./disk-selection.js";
import { credentialsForHost, DockerConfigError } from "./docker-config.js";
import { type CachedImageRecord, ImageCache } from "./image-cache.js";
import { pullIntoCache } from "./image-pull.js";
import {
  formatImageReference,
  type ImageReference,
  manifestReference,
  parseImageReference,
} from "./image-reference.js";
import { fetchImageManifest, type ImageManifest, nodeArchitecture } from "./manifests.js";
import { nodeEndpoints } from "./node-endpoints.js";
import { defaultPullPolicy } from "./pull-policy.js";
import { RegistryClient } from "./registry-client.js";
import type { RegistryEndpoint } from "./registry-endpoint.js";
import { TokenCache } from "./token-cache.js";

export interface RegistryImageSourceOptions {
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

interface ManifestPull {
  image: string;
  canonical: string;
  manifest: ImageManifest;
  client: RegistryClient;
}

export const DEFAULT_MAX_UNPACKED_BYTES = 20 * 1024 ** 3;

export class RegistryImageSource implements ContainerDiskSource {
  readonly #options: RegistryImageSourceOptions;
  readonly #cache: ImageCache;
  readonly #tokens = new TokenCache();
  /** Pulls in progress by manifest digest: concurrent resolves of one image share one pull. */
  readonly #pulls = new Map<string, Promise<CachedImageRecord>>();

  constructor(options: RegistryImageSourceOptions) {
    this.#options = options;
    this.#cache = new ImageCache(options.cacheDirectory);
  }

  async resolve(image: string, request: ContainerDiskRequest = {}): Promise<ContainerDiskImage> {
    const reference = parseImageReference(image);
    const canonical = formatImageReference(reference);
    const policy = request.pullPolicy ?? defaultPullPolicy(reference);
    await this.#cache.start();
    let record = await this.#cached(reference, canonical, policy === "Always");
    if (record === undefined && policy === "Never") {
      throw new ContainerDiskError(
        "ErrImageNeverPull",
        image,
        `${image}: the image is not present on the node with pull policy of Never`,
      );
    }
    record =
      record === undefined
        ? await this.#pull(image, reference, canonical, request)
        : await this.#cache.touch(record, canonical);
    return this.#imageOf(image, record, request.path);
  }

  /** The cached image that may be used without asking a registry, if any. */
  async #cached(
    reference: ImageReference,
    canonical: string,
    always: boolean,
  ): Promise<CachedImageRecord | undefined> {
    if (reference.digest !== undefined) return this.#cache.byDigest(reference.digest);
    return always ? undefined : this.#cache.byReference(canonical);
  }

  async #imageOf(
    image: string,
    record: CachedImageRecord,
    path: string | undefined,
  ): Promise<ContainerDiskImage> {
    const root = this.#cache.rootOf(record.digest);
    if (path === undefined) {
      if (record.diskProblem !== undefined)
        throw new ContainerDiskError("InvalidImage", image, record.diskProblem);
      const resolved: ContainerDiskImage = { root };
      if (record.disk !== undefined) resolved.disk = record.disk;
      if (record.diskFormat !== undefined) resolved.diskFormat = record.diskFormat;
      return resolved;
    }
    const choice = await chooseDisk({
      image,
      root,
      symlinks: new Map(Object.entries(record.symlinks)),
      path,
    });
    return { root, ...choice };
  }

  #client(image: string, endpoint: RegistryEndpoint, request: ContainerDiskRequest): RegistryClient {
    let credentials: ReturnType<typeof credentialsForHost>;
    try {
      // A mirror's own credentials first; else the image's registry's, which is what users name in
      // `kubectl create secret docker-registry --docker-server` (the kubelet matches them so too).
      const secrets = request.dockerConfigJsons ?? [];
      credentials =
        credentialsForHost(secrets, endpoint.credentialHost) ??
        credentialsForHost(secrets, parseImageReference(image).registry);
    } catch (error) {
      if (!(error instanceof DockerConfigError)) throw error;
      throw new ContainerDiskError("ImagePullFailed", image, `${image}: ${error.message}`, { cause: error });
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
    request: ContainerDiskRequest,
  ): Promise<CachedImageRecord> {
    const byTag = reference.digest === undefined;
    const endpoints = (await nodeEndpoints(image, reference, this.#options)).filter(
      (endpoint) => !byTag || (endpoint.canResolve && endpoint.servesTags),
    );
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      const client = this.#client(image, endpoint, request);
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
        if (error instanceof ContainerDiskError || error instanceof HostToolMissingError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        failures.push(`${endpoint.origin}: ${message}`);
        this.#options.log?.info(
          { image, endpoint: endpoint.origin, err: error },
          "pull from endpoint failed",
        );
      }
    }
    if (failures.length === 0) failures.push("no configured endpoint may resolve tags");
    throw new ContainerDiskError("ImagePullFailed", image, `${image}: ${failures.join("; ")}`);
  }

  async #sharedPull(pull: ManifestPull): Promise<CachedImageRecord> {
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

  async #pullAndCollect(pull: ManifestPull): Promise<CachedImageRecord> {
    const { log, maxCacheBytes, maxUnpackedBytes = DEFAULT_MAX_UNPACKED_BYTES } = this.#options;
    const record = await pullIntoCache({
      image: pull.image,
      reference: pull.canonical,
      manifest: pull.manifest,
      client: pull.client,
      cache: this.#cache,
      maxUnpackedBytes,
    });
    log?.info({ image: pull.image, digest: record.digest, bytes: record.size }, "image pulled");
    const removed = await this.#cache.collect(maxCacheBytes, record.digest);
    if (removed.length > 0) log?.info({ removed }, "least recently used images removed from the cache");
    return record;
  }
}
