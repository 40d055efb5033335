// A VMI's volumes as files in its VM directory (overlays, empty disks, cloud-init ISOs, kernels).
export { CONFIG_DRIVE_LABEL, configDriveFiles, NOCLOUD_LABEL, noCloudFiles } from "./cloud-init.js";
export type { LauncherPodVolumes } from "./cloud-init-secrets.js";
export type { PreparedKernelBoot } from "./kernel-boot.js";
export {
  closeOpenedDisks,
  type PreparedDisk,
  type PreparedVolumes,
  type PrepareVolumesOptions,
  prepareVolumes,
  removeVmFiles,
} from "./prepare-volumes.js";
