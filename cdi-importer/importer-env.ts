// The module itself, not runtime/index.js: the barrel loads the whole controller runtime (~0.7 s), and an
// importer pod starts once per DataVolume.
import { Quantity } from "../runtime/quantity/quantity.js";
import { ImportError } from "./import-error.js";

/** CDI's import sources this importer serves (IMPORTER_SOURCE). */
export type ImportSourceKind = "http" | "registry" | "blank" | "pvc";

/** What the importer pod asks for, from its environment (CDI's variable names). */
export interface ImportRequest {
  readonly source: ImportSourceKind;
  /** http(s) URL for `http`, `docker://…` for `registry`; absent for blank and pvc. */
  readonly endpoint?: URL;
  /** The size disk.img must have, in bytes (IMPORTER_IMAGE_SIZE). */
  readonly imageSize: number;
  /** containerd hosts.toml directory (the node's mirror configuration), for `registry`. */
  readonly registryHosts?: string;
  /** The DataVolume's uid: the progress metric's ownerUID label. */
  readonly ownerUid: string;
  readonly metricsPort: number;
}

const SOURCES: readonly ImportSourceKind[] = ["http", "registry", "blank", "pvc"];
export const DEFAULT_METRICS_PORT = 8443;

export function parseImporterEnv(env: NodeJS.ProcessEnv): ImportRequest {
  const source = env.IMPORTER_SOURCE ?? "";
  if (!(SOURCES as readonly string[]).includes(source)) {
    throw new ImportError(
      `IMPORTER_SOURCE ${JSON.stringify(source)} is not one of ${SOURCES.join(", ")} (the importer serves no other)`,
    );
  }
  const kind = source as ImportSourceKind;
  const endpoint =
    kind === "http" || kind === "registry" ? parseEndpoint(kind, env.IMPORTER_ENDPOINT) : undefined;
  return {
    source: kind,
    ...(endpoint ? { endpoint } : {}),
    imageSize: parseImageSize(env.IMPORTER_IMAGE_SIZE),
    ...(env.IMPORTER_REGISTRY_HOSTS ? { registryHosts: env.IMPORTER_REGISTRY_HOSTS } : {}),
    ownerUid: env.OWNER_UID ?? "",
    metricsPort: parsePort(env.IMPORTER_METRICS_PORT),
  };
}

function parseEndpoint(kind: "http" | "registry", text: string | undefined): URL {
  if (!text) throw new ImportError(`IMPORTER_ENDPOINT is required for a ${kind} source`);
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new ImportError(`IMPORTER_ENDPOINT ${JSON.stringify(text)} is not a URL`, { cause: error });
  }
  const allowed = kind === "http" ? ["http:", "https:"] : ["docker:"];
  if (!allowed.includes(url.protocol)) {
    const schemes = allowed.map((scheme) => `${scheme}//`).join(" or ");
    throw new ImportError(`IMPORTER_ENDPOINT of a ${kind} source must be ${schemes}, not ${url.protocol}//`);
  }
  return url;
}

/** A Kubernetes quantity (1Gi) or a number of bytes, whole and positive. */
export function parseImageSize(text: string | undefined): number {
  if (!text) throw new ImportError("IMPORTER_IMAGE_SIZE is required (the size disk.img must have)");
  const quantity = Quantity.tryParse(text);
  if (!quantity) throw new ImportError(`IMPORTER_IMAGE_SIZE ${JSON.stringify(text)} is not a quantity`);
  // Whole bytes rounded up, as apimachinery's Value() (CDI reads the size so).
  const bytes = quantity.valueBigInt();
  if (bytes <= 0n) throw new ImportError(`IMPORTER_IMAGE_SIZE ${text} is not a positive size`);
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ImportError(`IMPORTER_IMAGE_SIZE ${text} is too large`);
  return Number(bytes);
}

function parsePort(text: string | undefined): number {
  if (text === undefined || text === "") return DEFAULT_METRICS_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ImportError(`IMPORTER_METRICS_PORT ${JSON.stringify(text)} is not a port number`);
  }
  return port;
}
