// How an SSH key Secret of spec.accessCredentials travels (KubeVirt's launcher layout): virt-controller
// gives the launcher pod one `secret` volume per Secret, `<secretName>-access-cred`, so the kubelet
// fetches it with the node's credentials; virt-handler reads every key of that volume on the node and
// puts them into the cloud-init meta-data. Both sides take the names from here.
import type { VirtualMachineInstanceSpec } from "./vmi-spec.js";

/** The cloud-init data sources a key can be propagated through. */
export type CloudInitKeyPropagation = "noCloud" | "configDrive";

/** The launcher pod's volume for an access credential's Secret (KubeVirt's `<secretName>-access-cred`). */
export function accessCredentialVolumeName(secretName: string): string {
  return `${secretName}-access-cred`;
}

/**
 * The Secrets whose keys go to the guest through `propagation`, in the order of
 * spec.accessCredentials (the order the keys are numbered in), each once.
 */
export function propagatedKeySecrets(
  spec: Pick<VirtualMachineInstanceSpec, "accessCredentials">,
  propagation: CloudInitKeyPropagation,
): string[] {
  const names = (spec.accessCredentials ?? []).flatMap((credential) => {
    const key = credential.sshPublicKey;
    const secretName = key?.source.secret?.secretName;
    return key?.propagationMethod[propagation] !== undefined && secretName ? [secretName] : [];
  });
  return [...new Set(names)];
}
