// The image pull secrets of the service account a launcher pod runs as. The ServiceAccount admission
// plugin copies them into a pod only when the pod names none, and the launcher pod names the VMI's
// own; kubevirt-ts also pulls with the account's, as a kubelet pulling for that pod would have them.
import { defineKind, isNotFound, type KubeClient, type KubeObject } from "../../runtime/index.js";

interface ServiceAccount extends KubeObject {
  imagePullSecrets?: { name?: string }[];
}

const serviceAccountKind = defineKind<ServiceAccount>({
  group: "",
  version: "v1",
  kind: "ServiceAccount",
  plural: "serviceaccounts",
  namespaced: true,
});

/** The launcher pod names no service account: the namespace's `default` one. */
export const LAUNCHER_SERVICE_ACCOUNT = "default";

/** The account's pull secret names; none when the account does not exist (yet). */
export async function serviceAccountPullSecrets(client: KubeClient, namespace: string): Promise<string[]> {
  try {
    const account = await client
      .resource(serviceAccountKind)
      .get({ namespace, name: LAUNCHER_SERVICE_ACCOUNT });
    return (account.imagePullSecrets ?? []).map((ref) => ref.name ?? "").filter((name) => name !== "");
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
