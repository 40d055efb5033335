import type { OperatorIdentity } from "./strategy/install-strategy.js";

/** The environment variable carrying the operator's own image (set by its Deployment). */
export const OPERATOR_IMAGE_ENV = "VIRT_OPERATOR_IMAGE";

/** A tag as the OCI distribution spec allows it. */
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const EXAMPLE = "e.g. ghcr.io/kubevirt-ts/virt-operator:v0.1.0";

/**
 * The operator's identity from its own image reference: the registry (with the repository
 * prefix) the component images are found under, and the tag it installs by default.
 * `ghcr.io/kubevirt-ts/virt-operator:v0.1.0` → `ghcr.io/kubevirt-ts`, `v0.1.0`. A registry may
 * carry a port (`localhost:5000/kubevirt-ts/virt-operator:v1`); a digest after the tag
 * (`...:v1@sha256:...`) pins the operator's own image and is not part of the version. A
 * reference without a tag is refused: the version is what the operator installs.
 */
export function operatorIdentityFromImage(image: string | undefined, namespace: string): OperatorIdentity {
  const reference = image?.trim() ?? "";
  if (reference === "")
    throw new Error(`${OPERATOR_IMAGE_ENV} is not set: it must name the operator's own image (${EXAMPLE})`);
  const [nameAndTag = ""] = reference.split("@", 1);
  const lastSlash = nameAndTag.lastIndexOf("/");
  const colon = nameAndTag.indexOf(":", lastSlash + 1);
  if (colon < 0)
    throw new Error(
      `${OPERATOR_IMAGE_ENV}=${reference} has no tag: the tag is the version virt-operator installs (${EXAMPLE})`,
    );
  const version = nameAndTag.slice(colon + 1);
  if (!TAG.test(version))
    throw new Error(`${OPERATOR_IMAGE_ENV}=${reference} has an invalid tag "${version}" (${EXAMPLE})`);
  if (lastSlash <= 0)
    throw new Error(
      `${OPERATOR_IMAGE_ENV}=${reference} names no registry: the component images are found next to the operator's (${EXAMPLE})`,
    );
  return { namespace, registry: nameAndTag.slice(0, lastSlash), version };
}
