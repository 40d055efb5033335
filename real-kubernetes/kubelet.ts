/**
 * The kubelet (1.20, CRI to containerd) and kube-proxy (iptables mode) of the one node. The
 * kubelet authenticates clients by the cluster CA and asks the API server to authorise them
 * (webhook), as kubeadm sets it up: kube-apiserver reaches it for logs, exec and port-forward with
 * its kubelet-client certificate.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ClusterPki } from "./cluster-pki.js";
import type { KubernetesBinary } from "./kubernetes-binaries.js";
import { KUBELET_ROOT, NODE_IP, NODE_NAME, POD_CIDR, PORTS } from "./layout.js";
import { answers200 } from "./readiness.js";
import type { ProcessSpec } from "./supervised-process.js";

export function kubeletConfigYaml(pki: ClusterPki): string {
  return [
    "apiVersion: kubelet.config.k8s.io/v1beta1",
    "kind: KubeletConfiguration",
    `address: ${NODE_IP}`,
    `port: ${PORTS.kubelet}`,
    "readOnlyPort: 0",
    "healthzBindAddress: 127.0.0.1",
    `healthzPort: ${PORTS.kubeletHealthz}`,
    // This host's cgroups are v1 without systemd managing them.
    "cgroupDriver: cgroupfs",
    "failSwapOn: false",
    `tlsCertFile: ${pki.kubeletServing.cert}`,
    `tlsPrivateKeyFile: ${pki.kubeletServing.key}`,
    "authentication:",
    "  anonymous: {enabled: false}",
    "  webhook: {enabled: true}",
    `  x509: {clientCAFile: ${pki.caCert}}`,
    "authorization: {mode: Webhook}",
    "clusterDomain: cluster.local",
    "resolvConf: /etc/resolv.conf",
    // A development machine's disk is shared with everything else: no evictions, no image
    // garbage collection of the images this cluster was built from.
    "evictionHard: {}",
    "imageGCHighThresholdPercent: 100",
    "imageGCLowThresholdPercent: 99",
    "",
  ].join("\n");
}

export async function kubeletSpec(inputs: {
  binaries: Record<KubernetesBinary, string>;
  pki: ClusterPki;
  kubeletDir: string;
  kubeconfig: string;
  containerdSocket: string;
}): Promise<ProcessSpec> {
  const config = join(inputs.kubeletDir, "config.yaml");
  await writeFile(config, kubeletConfigYaml(inputs.pki));
  return {
    name: "kubelet",
    command: inputs.binaries.kubelet,
    args: [
      `--config=${config}`,
      `--kubeconfig=${inputs.kubeconfig}`,
      `--hostname-override=${NODE_NAME}`,
      `--node-ip=${NODE_IP}`,
      "--container-runtime=remote",
      `--container-runtime-endpoint=unix://${inputs.containerdSocket}`,
      `--root-dir=${KUBELET_ROOT}`,
      `--cert-dir=${join(inputs.kubeletDir, "pki")}`,
    ],
    ready: () => answers200(`http://127.0.0.1:${PORTS.kubeletHealthz}/healthz`),
  };
}

export function kubeProxySpec(inputs: {
  binaries: Record<KubernetesBinary, string>;
  kubeconfig: string;
}): ProcessSpec {
  return {
    name: "kube-proxy",
    command: inputs.binaries["kube-proxy"],
    args: [
      `--kubeconfig=${inputs.kubeconfig}`,
      `--hostname-override=${NODE_NAME}`,
      "--proxy-mode=iptables",
      `--bind-address=${NODE_IP}`,
      `--healthz-bind-address=127.0.0.1:${PORTS.proxyHealthz}`,
      `--metrics-bind-address=127.0.0.1:${PORTS.proxyMetrics}`,
      `--cluster-cidr=${POD_CIDR}`,
      // This host refuses raising conntrack limits and lowering oom scores.
      "--conntrack-max-per-core=0",
      "--oom-score-adj=0",
    ],
    ready: () => answers200(`http://127.0.0.1:${PORTS.proxyHealthz}/healthz`),
  };
}

/** `kube-proxy --cleanup`: removes the iptables chains it wrote. */
export function kubeProxyCleanupArgs(): string[] {
  return ["--cleanup", "--proxy-mode=iptables"];
}
