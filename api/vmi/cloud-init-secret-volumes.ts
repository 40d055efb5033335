// How a cloud-init Secret reference travels (KubeVirt's launcher layout): virt-controller gives the
// launcher pod a `secret` volume per reference, virt-handler reads the keys from that volume on the
// node. Both sides take the names from here, so they cannot drift apart.

/** Each reference kind: its field, the pod volume's suffix, the keys KubeVirt reads (first found wins). */
export const CLOUD_INIT_SECRET_REFERENCES = [
  { field: "secretRef", suffix: "udata", keys: ["userdata", "userData"] },
  { field: "networkDataSecretRef", suffix: "ndata", keys: ["networkdata", "networkData"] },
] as const;

export type CloudInitSecretReference = (typeof CLOUD_INIT_SECRET_REFERENCES)[number];

/** The launcher pod's volume for a VMI volume's reference: `<volume>-udata` / `<volume>-ndata`. */
export function cloudInitSecretVolumeName(volumeName: string, reference: CloudInitSecretReference): string {
  return `${volumeName}-${reference.suffix}`;
}
