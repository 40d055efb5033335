/** A volume cannot be set up (kubelet's FailedMount): containers wait in ContainerCreating. */
export class VolumeError extends Error {
  override readonly name: string = "VolumeError";
}

/**
 * A VolumeError whose message is already kubelet's whole text (a claim that cannot be processed,
 * a PV's node affinity check): it is reported as it is, without `MountVolume.SetUp failed for`.
 */
export class CompleteVolumeError extends VolumeError {
  override readonly name: string = "CompleteVolumeError";
}
