// The endpoints this node pulls an image from: containerd's hosts directory when it has a file for the
// image's host (or _default), else registries.conf when a [[registry]] matches, else the host itself.
// Both are read on every pull, so a changed configuration applies without a restart (as in containerd).
import { readFile } from "node:fs/promises";
import { hostsDirectoryEndpoints } from "./hosts-toml.js";
import type { ImageReference } from "./image-reference.js";
import { OciImageError } from "./oci-image-error.js";
import { parseRegistriesConf, registriesConfDecision } from "./registries-conf.js";
import { defaultEndpoint, type RegistryEndpoint } from "./registry-endpoint.js";

export interface MirrorConfiguration {
  /** containerd's config_path (`<dir>/<host[:port]>/hosts.toml`). */
  readonly hostsDirectory?: string;
  /** A registries.conf (version 2) file. */
  readonly registriesConf?: string;
}

async function optionalText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** An endpoint listed twice (a mirror that is also the server) is tried once, at its first place. */
function withoutRepeats(endpoints: readonly RegistryEndpoint[]): RegistryEndpoint[] {
  const seen = new Set<string>();
  return endpoints.filter((endpoint) => {
    const key = `${endpoint.origin}${endpoint.apiRoot}/${endpoint.repository}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function nodeEndpoints(
  image: string,
  reference: ImageReference,
  configuration: MirrorConfiguration,
): Promise<RegistryEndpoint[]> {
  const fail = (error: unknown) =>
    new OciImageError(
      "ImagePullFailed",
      image,
      `${image}: the node's registry configuration cannot be used: ${(error as Error).message}`,
      { cause: error },
    );
  try {
    if (configuration.hostsDirectory !== undefined) {
      const endpoints = await hostsDirectoryEndpoints(configuration.hostsDirectory, reference);
      if (endpoints !== undefined) return withoutRepeats(endpoints);
    }
    if (configuration.registriesConf !== undefined) {
      const text = await optionalText(configuration.registriesConf);
      if (text !== undefined) {
        const decision = registriesConfDecision(
          parseRegistriesConf(text, configuration.registriesConf),
          reference,
        );
        if (decision.kind === "blocked") {
          throw new OciImageError(
            "ImagePullFailed",
            image,
            `${image}: pulling is blocked by ${configuration.registriesConf} (prefix ${decision.prefix})`,
          );
        }
        if (decision.kind === "endpoints") return withoutRepeats(decision.endpoints);
      }
    }
  } catch (error) {
    if (error instanceof OciImageError) throw error;
    throw fail(error);
  }
  return [defaultEndpoint(reference.registry, reference.repository)];
}
