// A user who may read VMs and VMIs but nothing more, for the tests of what RBAC refuses: a service
// account of a namespace of its own, a Role on the VMs' namespace, and a kubeconfig with its
// token from `kubectl create token`.
import { stringify } from "yaml";
import type { Kubectl } from "../../dev-cluster/testing/kubectl.js";
import { writeTokenKubeconfig } from "./virtctl-process.js";

export interface VmViewerOptions {
  /** Created for the service account `viewer`. */
  readonly userNamespace: string;
  /** Where it may read VMs and VMIs. */
  readonly vmNamespace: string;
  /** The admin kubeconfig, whose API server the viewer's kubeconfig names. */
  readonly serverKubeconfig: string;
  /** Where to write the viewer's kubeconfig. */
  readonly kubeconfig: string;
}

/** Creates the viewer (as the admin `kubectl`) and returns the path of its kubeconfig. */
export async function createVmViewer(kubectl: Kubectl, options: VmViewerOptions): Promise<string> {
  const { userNamespace, vmNamespace } = options;
  await kubectl.ok(["create", "namespace", userNamespace]);
  await kubectl.ok(["create", "serviceaccount", "viewer", "-n", userNamespace]);
  const role = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: "vm-viewer", namespace: vmNamespace },
    rules: [
      {
        apiGroups: ["kubevirt.io"],
        resources: ["virtualmachines", "virtualmachineinstances"],
        verbs: ["get", "list", "watch"],
      },
    ],
  };
  const binding = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "vm-viewer", namespace: vmNamespace },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "vm-viewer" },
    subjects: [{ kind: "ServiceAccount", name: "viewer", namespace: userNamespace }],
  };
  await kubectl.apply([stringify(role), stringify(binding)].join("---\n"));
  const token = (await kubectl.ok(["create", "token", "viewer", "-n", userNamespace])).trim();
  writeTokenKubeconfig(options.serverKubeconfig, token, options.kubeconfig, "viewer");
  return options.kubeconfig;
}
