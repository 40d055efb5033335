/**
 * What virt-controller and virt-handler agree on about a VMI's image pull secrets. kubevirt-ts pulls
 * containerDisk and kernelBoot images in virt-handler, not through the container runtime, so the
 * credentials reach the node as the VM's other Secrets do: as secret volumes of its launcher pod,
 * which the kubelet fetches with the node's credentials. The pod also lists them in
 * `spec.imagePullSecrets`, as KubeVirt's launcher pod does.
 */
export const LAUNCHER_PULL_SECRETS = {
  /** The pod volume of the Nth name in `spec.imagePullSecrets` is `<prefix><N>`. */
  volumePrefix: "image-pull-secret-",
  /** The key of a `kubernetes.io/dockerconfigjson` Secret, the only one mounted. */
  key: ".dockerconfigjson",
} as const;

interface PullSecretSpec {
  readonly volumes?: readonly {
    readonly containerDisk?: { readonly imagePullSecret?: string };
  }[];
  readonly domain: {
    readonly firmware?: {
      readonly kernelBoot?: { readonly container?: { readonly imagePullSecret?: string } };
    };
  };
}

/**
 * The Secrets the VMI's images are pulled with, in KubeVirt's order (containerDisk volumes, the
 * kernelBoot container) followed by the launcher pod's service account's `imagePullSecrets`, each
 * once.
 */
export function vmiPullSecretNames(
  spec: PullSecretSpec,
  serviceAccountSecrets: readonly string[] = [],
): string[] {
  const names = [
    ...(spec.volumes ?? []).map((volume) => volume.containerDisk?.imagePullSecret),
    spec.domain.firmware?.kernelBoot?.container?.imagePullSecret,
    ...serviceAccountSecrets,
  ];
  return [...new Set(names.filter((name): name is string => Boolean(name)))];
}

/** The pod volume that carries the Nth pull secret. */
export function pullSecretVolumeName(index: number): string {
  return `${LAUNCHER_PULL_SECRETS.volumePrefix}${index}`;
}
