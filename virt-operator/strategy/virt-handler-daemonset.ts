import {
  componentSelector,
  fieldEnv,
  httpGetProbe,
  metricsPort,
  pullPolicy,
  pullSecrets,
} from "./container-parts.js";
import type { ManagedObject } from "./install-strategy.js";
import { podPlacement } from "./node-placement.js";
import { COMPONENT_LABEL, managedMetadata, podTemplateLabels } from "./object-metadata.js";
import { PRIORITY_CLASS_NAME } from "./priority-class.js";
import { componentImage, type RenderContext } from "./render-context.js";
import { HANDLER_SERVICE_ACCOUNT } from "./service-accounts.js";

export const VIRT_HANDLER = "virt-handler";
/** virt-handler's console server (console, VNC, pause for virt-api): KubeVirt's port. */
export const CONSOLE_SERVER_PORT = 8186;

/**
 * Host paths virt-handler shares with the node, each mounted at the same path in the container:
 * the node's libvirt and QEMU see the file names virt-handler writes into domain XML.
 */
const HOST_PATHS = [
  // libvirt's sockets (qemu:///system) and its QEMU pid files (read for the memory metrics).
  { name: "libvirt-runtime", path: "/var/run/libvirt", type: "DirectoryOrCreate" },
  // KVM, for the boot probe of node/kvm-detection.ts. Type "" checks nothing, so a node without
  // KVM still runs virt-handler (its VMs then need useEmulation).
  { name: "kvm", path: "/dev/kvm", type: "" },
  // --state-dir (/var/lib/kubevirt-ts/vms: per-VM overlays, cloud-init disks) and
  // --image-store (/var/lib/kubevirt-ts/images): files QEMU opens by these paths.
  { name: "kubevirt-ts-state", path: "/var/lib/kubevirt-ts", type: "DirectoryOrCreate" },
  // The host kernels node/kvm-boot-probe.ts boots under KVM to prove that KVM works.
  { name: "boot", path: "/boot", type: "", readOnly: true },
  // The kubelet's pod directories: virt-handler reads the Secrets a VMI references (cloud-init
  // secretRef) from its launcher pod's secret volumes there, as KubeVirt's handler does, and so
  // needs no right to read Secrets (--kubelet-pods-dir); and it leaves the launcher its part of
  // the VM's network (the guest's DHCP answer) in the pod's network volume, so it is writable.
  // The kubelet mounts a pod's volumes after this container started: HostToContainer propagation
  // makes them visible here.
  { name: "kubelet-pods", path: "/var/lib/kubelet/pods", type: "", propagation: "HostToContainer" },
  // The node's containerd registry mirrors (hosts.toml per registry): containerDisks are pulled
  // through the same mirrors as the node's images (virt-handler's --registry-hosts default).
  // Type "" checks nothing: a node without mirrors has an empty directory there.
  { name: "registry-hosts", path: "/etc/containerd/certs.d", type: "", readOnly: true },
] as const;

/**
 * virt-handler: one per node (in `spec.workloads`' placement, which is where VMs may run),
 * privileged because it drives the node's libvirt and KVM. Its pods can be replaced at any time:
 * the VMs run under libvirtd, not in this pod, and are adopted by the next handler.
 */
export function renderVirtHandlerDaemonSet(context: RenderContext): ManagedObject {
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: managedMetadata(context, VIRT_HANDLER, {
      namespaced: true,
      extraLabels: { [COMPONENT_LABEL]: VIRT_HANDLER },
    }),
    spec: {
      selector: componentSelector(COMPONENT_LABEL, VIRT_HANDLER),
      // A handler restart pauses the reconciling of its node's VMs, never the VMs: a tenth of
      // the nodes at a time (at least one) rolls a large cluster in reasonable time.
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "10%" } },
      template: {
        metadata: { labels: podTemplateLabels(VIRT_HANDLER) },
        spec: {
          serviceAccountName: HANDLER_SERVICE_ACCOUNT,
          priorityClassName: PRIORITY_CLASS_NAME,
          // QEMU runs under the node's libvirtd: its /proc entries (metrics/qemu-resident.ts)
          // are visible only in the host's PID namespace.
          hostPID: true,
          ...podPlacement(context.workloadsPlacement),
          ...pullSecrets(context),
          containers: [
            {
              name: VIRT_HANDLER,
              image: componentImage(context, VIRT_HANDLER),
              ...pullPolicy(context),
              // --address defaults to $POD_IP; --node-name to $NODE_NAME.
              args: ["--namespace", context.namespace],
              env: [
                fieldEnv("NODE_NAME", "spec.nodeName"),
                fieldEnv("POD_IP", "status.podIP"),
                // libvirt's event pump holds a libuv pool thread for good (see virt-handler/main.ts):
                // it must be in the environment before node starts.
                { name: "UV_THREADPOOL_SIZE", value: "8" },
              ],
              // main.ts --console-port: virt-api's way to consoles, VNC and pause (KubeVirt's 8186).
              ports: [
                metricsPort(),
                { name: "console", containerPort: CONSOLE_SERVER_PORT, protocol: "TCP" },
              ],
              // The health server starts only once libvirt answers and KVM was probed (up to
              // 10 s): give that five minutes before liveness counts.
              startupProbe: httpGetProbe("/healthz", { periodSeconds: 5, failureThreshold: 60 }),
              readinessProbe: httpGetProbe("/readyz", { timeoutSeconds: 10 }),
              livenessProbe: httpGetProbe("/healthz", { timeoutSeconds: 10 }),
              resources: { requests: { cpu: "10m", memory: "150Mi" } },
              securityContext: { privileged: true },
              volumeMounts: HOST_PATHS.map((volume) => ({
                name: volume.name,
                mountPath: volume.path,
                ...("readOnly" in volume ? { readOnly: true } : {}),
                ...("propagation" in volume ? { mountPropagation: volume.propagation } : {}),
              })),
            },
          ],
          volumes: HOST_PATHS.map((volume) => ({
            name: volume.name,
            hostPath: { path: volume.path, type: volume.type },
          })),
        },
      },
    },
  };
}
