// An OCI/Docker registry client that pulls images into a node-local cache of checked, unpacked, read-only
// file systems. It knows registries, not KubeVirt: what an image means to its user (which file is a disk)
// is the caller's `inspect`.
export { credentialsForHost, DockerConfigError, type RegistryCredentials } from "./docker-config.js";
export { type BaseImageRecord, type CachedImageRecord, ImageCache, type NoFacts } from "./image-cache.js";
export type { ImageInspection, UnpackedTree } from "./image-pull.js";
export { formatImageReference, type ImageReference, parseImageReference } from "./image-reference.js";
export { OciImageError, type OciImageErrorReason, ToolMissingError } from "./oci-image-error.js";
export { describePathInImage } from "./path-text.js";
export { defaultPullPolicy, type PullPolicy } from "./pull-policy.js";
export {
  DEFAULT_MAX_UNPACKED_BYTES,
  type PulledImage,
  type PullOptions,
  RegistryPuller,
  type RegistryPullerOptions,
} from "./registry-puller.js";
