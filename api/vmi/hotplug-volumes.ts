// A hotpluggable volume (`persistentVolumeClaim.hotpluggable` or `dataVolume.hotpluggable`) is never
// part of the VM's boot definition or its launcher pod: virt-controller mounts its claim through an
// attachment pod and virt-handler attaches the disk to the running domain, as KubeVirt does. Every
// component asks this one question, so they agree on which volumes those are.

/** The part of a VMI volume that says whether it is hotpluggable (frozen or not). */
interface HotplugSourceFields {
  readonly persistentVolumeClaim?: { readonly hotpluggable?: boolean | undefined } | undefined;
  readonly dataVolume?: { readonly hotpluggable?: boolean | undefined } | undefined;
}

export function isHotpluggableVolume(volume: HotplugSourceFields): boolean {
  return volume.persistentVolumeClaim?.hotpluggable === true || volume.dataVolume?.hotpluggable === true;
}
