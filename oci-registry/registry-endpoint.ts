// Where an image can be pulled from: the endpoints a node's mirror configuration lists for it, tried in
// order, each with the repository's name on that endpoint (registries.conf may rewrite it).
import { DOCKER_HUB } from "./image-reference.js";

export interface RegistryEndpoint {
  /** "https://mirror.example:5000": plain http only when configured as such (http:// or insecure). */
  readonly origin: string;
  /** The API root on the origin ("/v2", or a mirror's override path). */
  readonly apiRoot: string;
  /** The repository's name on this endpoint. */
  readonly repository: string;
  /** TLS certificates are not verified (hosts.toml skip_verify, registries.conf insecure). */
  readonly skipVerify: boolean;
  /** The endpoint may turn a tag into a digest (hosts.toml "resolve"); else it serves digests only. */
  readonly canResolve: boolean;
  /** The endpoint serves references by tag (registries.conf pull-from-mirror = "digest-only" forbids it). */
  readonly servesTags: boolean;
  /** The original host, sent as `?ns=` to mirrors (as containerd does). */
  readonly namespace?: string;
  /** The host whose pull-secret entry applies ("docker.io" for Docker Hub's API host). */
  readonly credentialHost: string;
}

/** Docker Hub's API host, as containerd and Docker use it for docker.io. */
export const DOCKER_HUB_API_HOST = "registry-1.docker.io";

/** The host to connect to for a namespace host: Docker Hub's API host for docker.io. */
export function apiHost(host: string): string {
  return host === DOCKER_HUB ? DOCKER_HUB_API_HOST : host;
}

/** The endpoint used when no mirror configuration names the host: https to the host itself. */
export function defaultEndpoint(registry: string, repository: string): RegistryEndpoint {
  return {
    origin: `https://${apiHost(registry)}`,
    apiRoot: "/v2",
    repository,
    skipVerify: false,
    canResolve: true,
    servesTags: true,
    credentialHost: registry,
  };
}

/** "host[:port]" of an origin, as pull secrets key it ("docker.io" for Docker Hub's hosts). */
export function credentialHostOf(origin: string): string {
  const host = new URL(origin).host;
  return host === DOCKER_HUB_API_HOST || host === "index.docker.io" ? DOCKER_HUB : host;
}
