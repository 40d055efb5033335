// containerDisk and kernelBoot images: the source interface and the dev cluster's local image store.
export {
  ContainerDiskError,
  type ContainerDiskErrorReason,
  type ContainerDiskImage,
  type ContainerDiskSource,
} from "./container-disk-source.js";
export { hostPathInImage } from "./image-paths.js";
export { LocalImageStore } from "./local-image-store.js";
