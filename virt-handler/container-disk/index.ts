// containerDisk and kernelBoot images: the source interface, the dev cluster's local image store, the
// registries (through oci-registry/), and opening an image's files so that nothing outside the image can
// be reached through them.
export {
  ContainerDiskError,
  type ContainerDiskErrorReason,
  type ContainerDiskImage,
  type ContainerDiskRequest,
  type ContainerDiskSource,
} from "./container-disk-source.js";
export { type ImageFile, type ImageFileRequest, openImageFile } from "./image-file.js";
export { canonicalPathInImage, describePathInImage, pathInImageComponents } from "./image-paths.js";
export { RoutedImageSources } from "./image-sources.js";
export { LocalImageStore } from "./local-image-store.js";
export {
  DEFAULT_MAX_UNPACKED_BYTES,
  RegistryImageSource,
  type RegistryImageSourceOptions,
} from "./registry-image-source.js";
