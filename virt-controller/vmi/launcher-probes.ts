// The VMI's readiness and liveness probes on its launcher pod (KubeVirt's rendercontainer.go): an
// httpGet or tcpSocket probe is copied onto the compute container, so the kubelet runs it against
// the pod's address, which reaches the guest (masquerade's NAT, or the guest holding the pod's IP
// on bridge). Its initial delay gains KubeVirt's LibvirtStartupDelay. A failing readiness probe
// makes the pod, and with it the VMI, not Ready (a Service drops it); a failing liveness probe makes
// the kubelet kill the container, which ends the VM, and the VM's run strategy decides what follows.
// exec and guestAgentPing run in the guest through its agent: virt-handler runs them, not the kubelet.
import type { VirtualMachineInstanceSpec, Probe as VmiProbe } from "../../api/index.js";
import type { Pod } from "../kinds.js";

type PodProbe = NonNullable<NonNullable<Pod["spec"]>["containers"][number]["readinessProbe"]>;

/** KubeVirt's LibvirtStartupDelay, added to every probe's initial delay. */
export const LIBVIRT_STARTUP_DELAY_SECONDS = 10;

export function launcherProbes(spec: VirtualMachineInstanceSpec): {
  readinessProbe?: PodProbe;
  livenessProbe?: PodProbe;
} {
  const probes: { readinessProbe?: PodProbe; livenessProbe?: PodProbe } = {};
  const readiness = podProbeOf(spec.readinessProbe);
  const liveness = podProbeOf(spec.livenessProbe);
  if (readiness) probes.readinessProbe = readiness;
  if (liveness) probes.livenessProbe = liveness;
  return probes;
}

function podProbeOf(probe: VmiProbe | undefined): PodProbe | undefined {
  if (probe === undefined || (probe.httpGet === undefined && probe.tcpSocket === undefined)) return undefined;
  const rendered: PodProbe = {
    initialDelaySeconds: (probe.initialDelaySeconds ?? 0) + LIBVIRT_STARTUP_DELAY_SECONDS,
  };
  if (probe.httpGet) rendered.httpGet = probe.httpGet as PodProbe["httpGet"];
  if (probe.tcpSocket) rendered.tcpSocket = probe.tcpSocket as PodProbe["tcpSocket"];
  for (const field of ["timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"] as const) {
    if (probe[field] !== undefined) rendered[field] = probe[field];
  }
  return rendered;
}
