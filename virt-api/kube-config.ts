import { KubeConfig } from "@kubernetes/client-node";

/**
 * Where the API server is: the --kubeconfig file; else, inside a pod, the service account
 * (under $KUBEVIRT_TS_ROOT on the dev cluster, where container paths are prefixed); else
 * client-node's default ($KUBECONFIG, ~/.kube/config). As virt-controller's.
 */
export function loadKubeConfig(path: string | undefined, env: NodeJS.ProcessEnv): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path) kubeConfig.loadFromFile(path);
  else if (env.KUBERNETES_SERVICE_HOST) kubeConfig.loadFromCluster(env.KUBEVIRT_TS_ROOT ?? "");
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
