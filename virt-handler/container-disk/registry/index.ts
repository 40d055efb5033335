// Pulling containerDisk and kernelBoot images from OCI/Docker registries into a node-local cache.
export { credentialsForHost, DockerConfigError, type RegistryCredentials } from "./docker-config.js";
export { type CachedImageRecord, ImageCache } from "./image-cache.js";
export { formatImageReference, type ImageReference, parseImageReference } from "./image-reference.js";
export { defaultPullPolicy, type PullPolicy } from "./pull-policy.js";
export {
  DEFAULT_MAX_UNPACKED_BYTES,
  RegistryImageSource,
  type RegistryImageSourceOptions,
} from "./registry-image-source.js";
