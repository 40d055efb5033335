// Credentials from Kubernetes pull secrets (`.dockerconfigjson`: `{"auths": {host: {auth | username,
// password}}}`), matched by registry host as kubelet does: keys may be URLs ("https://index.docker.io/v1/")
// or host[:port], Docker Hub's several names all mean docker.io. The first secret with an entry wins.
import { DOCKER_HUB } from "./image-reference.js";

export interface RegistryCredentials {
  readonly username: string;
  readonly password: string;
}

export class DockerConfigError extends Error {
  override readonly name = "DockerConfigError";
}

const DOCKER_HUB_NAMES = new Set([
  "docker.io",
  "index.docker.io",
  "registry-1.docker.io",
  "registry.hub.docker.com",
]);

/** A dockerconfigjson key as "host[:port]" ("docker.io" for Docker Hub). */
export function normaliseConfigKey(key: string): string {
  const withoutScheme = key.replace(/^[a-z]+:\/\//i, "");
  const host = (withoutScheme.split("/")[0] ?? "").toLowerCase();
  return DOCKER_HUB_NAMES.has(host) ? DOCKER_HUB : host;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function entryCredentials(entry: unknown, key: string, index: number): RegistryCredentials | undefined {
  if (!isRecord(entry))
    throw new DockerConfigError(`pull secret ${index + 1}: auths[${JSON.stringify(key)}] is not an object`);
  if (typeof entry.username === "string" && typeof entry.password === "string" && entry.username !== "") {
    return { username: entry.username, password: entry.password };
  }
  if (typeof entry.auth !== "string" || entry.auth === "") return undefined;
  const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) {
    throw new DockerConfigError(
      `pull secret ${index + 1}: auths[${JSON.stringify(key)}].auth is not base64 of user:password`,
    );
  }
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The credentials the secrets hold for `host` ("host[:port]", "docker.io"), or undefined. */
export function credentialsForHost(
  dockerConfigJsons: readonly string[],
  host: string,
): RegistryCredentials | undefined {
  const wanted = normaliseConfigKey(host);
  for (const [index, text] of dockerConfigJsons.entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new DockerConfigError(`pull secret ${index + 1} is not JSON`, { cause: error });
    }
    const auths = isRecord(parsed) ? parsed.auths : undefined;
    if (!isRecord(auths)) throw new DockerConfigError(`pull secret ${index + 1} has no "auths" object`);
    for (const [key, entry] of Object.entries(auths)) {
      if (normaliseConfigKey(key) !== wanted) continue;
      const credentials = entryCredentials(entry, key, index);
      if (credentials !== undefined) return credentials;
    }
  }
  return undefined;
}
