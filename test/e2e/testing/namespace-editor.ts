// A namespace user as a shared cluster has them: a service account bound to the `edit` ClusterRole
// in one namespace only (KubeVirt's kubevirt.io:edit aggregates into it), with a kubeconfig holding
// its token from `kubectl create token`. The tenant-isolation tests attack the node as this user.
import { stringify } from "yaml";
import type { Kubectl } from "../../dev-cluster/testing/kubectl.js";
import { writeTokenKubeconfig } from "./virtctl-process.js";

export interface NamespaceEditorOptions {
  /** Created, with the service account `editor` in it. */
  readonly namespace: string;
  /** The admin kubeconfig, whose API server the editor's kubeconfig names. */
  readonly serverKubeconfig: string;
  /** Where to write the editor's kubeconfig. */
  readonly kubeconfig: string;
}

/** Creates the namespace, the service account and its RoleBinding (as the admin); returns the kubeconfig's path. */
export async function createNamespaceEditor(
  kubectl: Kubectl,
  options: NamespaceEditorOptions,
): Promise<string> {
  const { namespace } = options;
  await kubectl.ok(["create", "namespace", namespace]);
  await kubectl.ok(["create", "serviceaccount", "editor", "-n", namespace]);
  const binding = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "editor-edit", namespace },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
    subjects: [{ kind: "ServiceAccount", name: "editor", namespace }],
  };
  await kubectl.apply(stringify(binding));
  const token = (await kubectl.ok(["create", "token", "editor", "-n", namespace, "--duration=2h"])).trim();
  writeTokenKubeconfig(options.serverKubeconfig, token, options.kubeconfig, "editor");
  return options.kubeconfig;
}
