import { KubeConfig } from "@kubernetes/client-node";

/**
 * Where a component finds the API server: the `--kubeconfig` file when given; else, inside a pod
 * (KUBERNETES_SERVICE_HOST set), the pod's service account, read under $KUBEVIRT_TS_ROOT because
 * the dev cluster runs pods as local processes whose container paths carry that prefix; else
 * client-node's default ($KUBECONFIG, ~/.kube/config).
 */
export function loadKubeConfig(path: string | undefined, env: NodeJS.ProcessEnv): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path) kubeConfig.loadFromFile(path);
  else if (env.KUBERNETES_SERVICE_HOST) kubeConfig.loadFromCluster(env.KUBEVIRT_TS_ROOT ?? "");
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
