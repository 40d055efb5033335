// Image references as kubelet and containerd read them: `[host[:port]/]name[:tag][@sha256:hex]`, checked
// against the distribution grammar (distribution/reference), with Docker Hub's defaults (docker.io, the
// library/ prefix for one-component names). Anything the grammar does not produce is refused: a reference
// becomes URL paths and cache keys, so only text that cannot mean anything else is let through.
import { OciImageError } from "./oci-image-error.js";

export interface ImageReference {
  /** The namespace host as written or defaulted ("docker.io", "registry.example:5000"). */
  readonly registry: string;
  /** The repository on that host ("library/alpine"). */
  readonly repository: string;
  readonly tag?: string;
  /** "sha256:<64 hex>". */
  readonly digest?: string;
}

const COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const NAME_PATTERN = new RegExp(`^${COMPONENT}(?:/${COMPONENT})*$`);
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST_PATTERN = /^sha256:[a-f0-9]{64}$/;
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const HOST_PATTERN = new RegExp(
  `^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?$`,
);
/** distribution/reference's NameTotalLengthMax (host + "/" + repository). */
const NAME_MAX_LENGTH = 255;

export const DOCKER_HUB = "docker.io";

function refuse(text: string, why: string): OciImageError {
  return new OciImageError(
    "InvalidImage",
    text,
    `${JSON.stringify(text)} is not a valid image reference: ${why}`,
  );
}

/** The first component is a host when it has a "." or ":" or is "localhost" (Docker's rule). */
function splitHost(name: string): { registry: string; path: string } {
  const slash = name.indexOf("/");
  const first = slash < 0 ? "" : name.slice(0, slash);
  if (slash >= 0 && (first.includes(".") || first.includes(":") || first === "localhost")) {
    return { registry: first, path: name.slice(slash + 1) };
  }
  return { registry: DOCKER_HUB, path: name };
}

export function parseImageReference(text: string): ImageReference {
  if (text.length === 0) throw refuse(text, "it is empty");
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST_PATTERN.test(digest))
      throw refuse(text, "the digest must be sha256: and 64 lowercase hex digits");
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_PATTERN.test(tag))
      throw refuse(text, `the tag ${JSON.stringify(tag)} is not [A-Za-z0-9_][A-Za-z0-9._-]{0,127}`);
  }
  const { registry, path } = splitHost(rest);
  if (!HOST_PATTERN.test(registry))
    throw refuse(text, `the registry host ${JSON.stringify(registry)} is not valid`);
  const registryHost = registry.toLowerCase() === "index.docker.io" ? DOCKER_HUB : registry;
  if (!NAME_PATTERN.test(path)) {
    throw refuse(
      text,
      "the repository name must be lowercase components of [a-z0-9] separated by . _ __ - or /",
    );
  }
  const repository = registryHost === DOCKER_HUB && !path.includes("/") ? `library/${path}` : path;
  if (registryHost.length + 1 + repository.length > NAME_MAX_LENGTH) {
    throw refuse(text, `host and repository are longer than ${NAME_MAX_LENGTH} characters`);
  }
  const reference: { registry: string; repository: string; tag?: string; digest?: string } = {
    registry: registryHost,
    repository,
  };
  if (tag !== undefined) reference.tag = tag;
  if (digest !== undefined) reference.digest = digest;
  return reference;
}

/** The reference in one spelling ("docker.io/library/alpine:3.20"), tag "latest" when neither is given. */
export function formatImageReference(reference: ImageReference): string {
  const base = `${reference.registry}/${reference.repository}`;
  const tag = reference.tag ?? (reference.digest === undefined ? "latest" : undefined);
  return `${base}${tag === undefined ? "" : `:${tag}`}${reference.digest === undefined ? "" : `@${reference.digest}`}`;
}

/** What to ask the registry's manifests endpoint for: the digest when there is one, else the tag. */
export function manifestReference(reference: ImageReference): string {
  return reference.digest ?? reference.tag ?? "latest";
}
