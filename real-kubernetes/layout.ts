/**
 * The single-node cluster's fixed shape: its names, addresses and ports, and where its files go
 * under the data directory. Addresses are private and live on interfaces this project creates:
 * the node's address sits on a bridge with no ports (a dummy interface; this kernel has no dummy
 * driver), pods on the CNI bridge, and the service range is routed into the node's bridge, where
 * anything kube-proxy did not rewrite ends.
 */
import { join } from "node:path";

export const NODE_NAME = "node01";
/** The node's InternalIP: the API server, the kubelet and the image registry listen here. */
export const NODE_IP = "10.249.0.1";
export const NODE_BRIDGE = "kvts-node";
export const POD_CIDR = "10.244.0.0/24";
export const POD_BRIDGE = "kvts-cni0";
export const SERVICE_CIDR = "10.97.0.0/16";
/** The first address of the service range: the `kubernetes` Service. */
export const KUBERNETES_SERVICE_IP = "10.97.0.1";

export const PORTS = {
  apiServer: 6443,
  etcdClient: 23_791,
  etcdPeer: 23_801,
  controllerManager: 10_257,
  scheduler: 10_259,
  kubelet: 10_250,
  kubeletHealthz: 10_248,
  proxyHealthz: 10_256,
  proxyMetrics: 10_249,
  registry: 5000,
} as const;

export const API_SERVER_URL = `https://${NODE_IP}:${PORTS.apiServer}`;
/** Where pods pull from and what the image references name, as kind's local registry is named. */
export const IMAGE_REGISTRY_HOST = `localhost:${PORTS.registry}`;
/** The node's containerd mirror configuration: the path virt-handler's DaemonSet reads it from. */
export const CONTAINERD_HOSTS_DIR = "/etc/containerd/certs.d";
/** The kubelet's root: virt-handler's DaemonSet mounts /var/lib/kubelet/pods from the host. */
export const KUBELET_ROOT = "/var/lib/kubelet";

/** Paths under the data directory. */
export function dataPaths(dataDir: string) {
  return {
    bin: join(dataDir, "bin"),
    pki: join(dataDir, "pki"),
    logs: join(dataDir, "logs"),
    etcd: join(dataDir, "etcd"),
    containerd: join(dataDir, "containerd"),
    cni: join(dataDir, "cni"),
    kubelet: join(dataDir, "kubelet"),
    proxy: join(dataDir, "kube-proxy"),
    registry: join(dataDir, "registry"),
    deploy: join(dataDir, "deploy"),
    adminKubeconfig: join(dataDir, "admin.kubeconfig"),
  };
}

export type DataPaths = ReturnType<typeof dataPaths>;
