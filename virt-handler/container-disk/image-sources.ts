// Which source an image reference goes to: `localhost/NAME:TAG` (no port: a reference no registry
// serves) to the node-local image store the test-guest builder writes, everything else to the
// registries. The local store stays for tests that publish images as plain files; a node pulls
// every user's image from a registry.
import type {
  ContainerDiskImage,
  ContainerDiskRequest,
  ContainerDiskSource,
} from "./container-disk-source.js";

export class RoutedImageSources implements ContainerDiskSource {
  constructor(
    readonly local: ContainerDiskSource,
    readonly registries: ContainerDiskSource,
  ) {}

  resolve(image: string, request?: ContainerDiskRequest): Promise<ContainerDiskImage> {
    return image.startsWith("localhost/")
      ? this.local.resolve(image, request)
      : this.registries.resolve(image, request);
  }
}
