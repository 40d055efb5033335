/**
 * The control plane's daemons, as kubeadm configures them on one node: etcd (Debian's), then
 * kube-apiserver, kube-controller-manager and kube-scheduler (Kubernetes 1.20 from Debian's
 * source). Everything listens on loopback or the node's address only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ClusterPki } from "./cluster-pki.js";
import type { KubernetesBinary } from "./kubernetes-binaries.js";
import { NODE_IP, POD_CIDR, PORTS, SERVICE_CIDR } from "./layout.js";
import { answers200 } from "./readiness.js";
import type { ProcessSpec } from "./supervised-process.js";

export interface ControlPlaneInputs {
  readonly binaries: Record<KubernetesBinary, string>;
  readonly pki: ClusterPki;
  readonly etcdDir: string;
  /** kubeconfig files of the controller-manager and the scheduler. */
  readonly kubeconfigs: { readonly controllerManager: string; readonly scheduler: string };
}

const ETCD_URL = `http://127.0.0.1:${PORTS.etcdClient}`;

export function etcdSpec(inputs: ControlPlaneInputs): ProcessSpec {
  const peer = `http://127.0.0.1:${PORTS.etcdPeer}`;
  return {
    name: "etcd",
    command: "etcd",
    args: [
      "--name=node01",
      `--data-dir=${inputs.etcdDir}`,
      `--listen-client-urls=${ETCD_URL}`,
      `--advertise-client-urls=${ETCD_URL}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=node01=${peer}`,
    ],
    ready: () => answers200(`${ETCD_URL}/health`),
  };
}

export async function apiServerSpec(inputs: ControlPlaneInputs): Promise<ProcessSpec> {
  const { pki } = inputs;
  const ca = await readFile(pki.caCert, "utf8");
  return {
    name: "kube-apiserver",
    command: inputs.binaries["kube-apiserver"],
    args: [
      `--etcd-servers=${ETCD_URL}`,
      `--bind-address=${NODE_IP}`,
      `--advertise-address=${NODE_IP}`,
      `--secure-port=${PORTS.apiServer}`,
      `--tls-cert-file=${pki.apiServer.cert}`,
      `--tls-private-key-file=${pki.apiServer.key}`,
      `--client-ca-file=${pki.caCert}`,
      "--authorization-mode=Node,RBAC",
      "--enable-admission-plugins=NodeRestriction",
      "--allow-privileged=true",
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      `--service-account-key-file=${pki.serviceAccountPublicKey}`,
      `--service-account-signing-key-file=${pki.serviceAccountKey}`,
      "--api-audiences=https://kubernetes.default.svc.cluster.local",
      `--kubelet-client-certificate=${pki.clients["apiserver-kubelet-client"].cert}`,
      `--kubelet-client-key=${pki.clients["apiserver-kubelet-client"].key}`,
      `--kubelet-certificate-authority=${pki.caCert}`,
      "--kubelet-preferred-address-types=InternalIP",
      // The aggregation layer (virt-api's subresources.kubevirt.io) and its front-proxy identity.
      `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
      "--requestheader-allowed-names=front-proxy-client",
      "--requestheader-username-headers=X-Remote-User",
      "--requestheader-group-headers=X-Remote-Group",
      "--requestheader-extra-headers-prefix=X-Remote-Extra-",
      `--proxy-client-cert-file=${pki.frontProxyClient.cert}`,
      `--proxy-client-key-file=${pki.frontProxyClient.key}`,
      // Aggregated APIs and webhooks are reached at their endpoints' pod IPs, as on a cluster
      // whose control plane is not on the service network.
      "--enable-aggregator-routing=true",
    ],
    ready: () => answers200(`https://${NODE_IP}:${PORTS.apiServer}/readyz`, { ca }),
    readyTimeoutMs: 120_000,
  };
}

export function controllerManagerSpec(inputs: ControlPlaneInputs): ProcessSpec {
  const { pki } = inputs;
  const kubeconfig = inputs.kubeconfigs.controllerManager;
  return {
    name: "kube-controller-manager",
    command: inputs.binaries["kube-controller-manager"],
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      "--bind-address=127.0.0.1",
      `--secure-port=${PORTS.controllerManager}`,
      "--port=0",
      "--leader-elect=false",
      `--service-account-private-key-file=${pki.serviceAccountKey}`,
      `--root-ca-file=${pki.caCert}`,
      `--cluster-signing-cert-file=${pki.caCert}`,
      `--cluster-signing-key-file=${join(pki.dir, "ca.key")}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      `--cluster-cidr=${POD_CIDR}`,
      "--use-service-account-credentials=true",
      "--controllers=*,bootstrapsigner,tokencleaner",
    ],
    ready: () => answers200(`https://127.0.0.1:${PORTS.controllerManager}/healthz`),
  };
}

export function schedulerSpec(inputs: ControlPlaneInputs): ProcessSpec {
  const kubeconfig = inputs.kubeconfigs.scheduler;
  return {
    name: "kube-scheduler",
    command: inputs.binaries["kube-scheduler"],
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      "--bind-address=127.0.0.1",
      `--secure-port=${PORTS.scheduler}`,
      "--port=0",
      "--leader-elect=false",
    ],
    ready: () => answers200(`https://127.0.0.1:${PORTS.scheduler}/healthz`),
  };
}
