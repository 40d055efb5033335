/**
 * The API paths virtctl uses: KubeVirt's objects, their subresources, namespaces, Services, and
 * the claims and DataVolumes addvolume hotplugs.
 */

export const SUBRESOURCE_GROUP_VERSION = "/apis/subresources.kubevirt.io/v1";

export type KubeVirtResource =
  | "virtualmachines"
  | "virtualmachineinstances"
  | "virtualmachineinstancereplicasets";

/** The singular names the API server's messages use (`virtualmachine "x" not found`). */
export const SINGULAR: Readonly<Record<KubeVirtResource, string>> = {
  virtualmachines: "virtualmachine",
  virtualmachineinstances: "virtualmachineinstance",
  virtualmachineinstancereplicasets: "virtualmachineinstancereplicaset",
};

const segment = encodeURIComponent;

export function objectPath(namespace: string, resource: KubeVirtResource, name: string): string {
  return `/apis/kubevirt.io/v1/namespaces/${segment(namespace)}/${resource}/${segment(name)}`;
}

export function subresourcePath(
  namespace: string,
  resource: KubeVirtResource,
  name: string,
  subresource: string,
): string {
  return `${SUBRESOURCE_GROUP_VERSION}/namespaces/${segment(namespace)}/${resource}/${segment(name)}/${subresource}`;
}

export function namespacePath(namespace: string): string {
  return `/api/v1/namespaces/${segment(namespace)}`;
}

export function servicesPath(namespace: string): string {
  return `${namespacePath(namespace)}/services`;
}

/** CDI's DataVolume (cdi.kubevirt.io/v1beta1, as KubeVirt's virtctl reads it). */
export function dataVolumePath(namespace: string, name: string): string {
  return `/apis/cdi.kubevirt.io/v1beta1/namespaces/${segment(namespace)}/datavolumes/${segment(name)}`;
}

export function persistentVolumeClaimPath(namespace: string, name: string): string {
  return `${namespacePath(namespace)}/persistentvolumeclaims/${segment(name)}`;
}
