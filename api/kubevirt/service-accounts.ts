// KubeVirt's service accounts, one identity per component in the install namespace. virt-api's
// webhooks tell KubeVirt's own writes from a user's by them (a VMI's spec and reserved labels are
// KubeVirt's to change); virt-operator creates them under these names.
export const KUBEVIRT_SERVICE_ACCOUNTS = {
  apiServer: "kubevirt-apiserver",
  controller: "kubevirt-controller",
  handler: "kubevirt-handler",
  operator: "kubevirt-operator",
} as const;

/** Whether `username` is one of KubeVirt's service accounts of the install namespace. */
export function isKubeVirtServiceAccount(username: string | undefined, installNamespace: string): boolean {
  const prefix = `system:serviceaccount:${installNamespace}:`;
  if (username === undefined || !username.startsWith(prefix)) return false;
  const name = username.slice(prefix.length);
  return Object.values(KUBEVIRT_SERVICE_ACCOUNTS).some((account) => account === name);
}
