// Why a VMI cannot become a domain. The reason is a CamelCase word that ends up in the VMI's conditions
// and events (as KubeVirt's sync errors do); the message names the disk, volume or interface at fault.

export type VmiConversionReason =
  /** A volume kind (persistentVolumeClaim, dataVolume, ...) or a device kubevirt-ts does not provide yet. */
  | "UnsupportedVolume"
  | "UnsupportedDevice"
  | "UnsupportedInterface"
  | "UnsupportedFirmware"
  /** The spec contradicts itself or misses what the domain needs (a disk without a volume, no memory, ...). */
  | "InvalidSpec"
  /** A containerDisk or kernelBoot image is not available (ContainerDiskError's reasons). */
  | "ImageNotFound"
  | "InvalidImage"
  | "ImagePullFailed"
  | "ErrImageNeverPull"
  /** Creating a VM file (overlay, empty disk, cloud-init image) failed. */
  | "VolumePreparationFailed"
  /** A program the node lacks (qemu-img, an ISO writer): never installed at run time, the node is unschedulable. */
  | "HostToolMissing";

export class VmiConversionError extends Error {
  override readonly name = "VmiConversionError";

  constructor(
    readonly reason: VmiConversionReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
