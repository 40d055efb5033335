/**
 * Where a VMI's virt-handler listens: the running virt-handler pod (label
 * `kubevirt.io=virt-handler`, in virt-api's namespace) on the VMI's node, at its pod IP. Asked
 * per request: a console or a pause is rare next to what a pod informer would cost.
 */
import type { ResourceClient } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { internalError } from "../status/status-error.js";

export const VIRT_HANDLER_LABEL = "kubevirt.io=virt-handler";

export class HandlerLocator {
  readonly #pods: ResourceClient<Pod>;
  readonly #namespace: string;

  constructor(pods: ResourceClient<Pod>, namespace: string) {
    this.#pods = pods;
    this.#namespace = namespace;
  }

  /** The pod IP of the virt-handler serving `vmi`; a 500 StatusError saying why when there is none. */
  async addressFor(vmi: VirtualMachineInstance): Promise<string> {
    const node = vmi.status?.nodeName;
    if (!node) throw internalError(`VMI ${vmi.metadata?.name ?? ""} is on no node yet`);
    let pods: Pod[];
    try {
      // Filtered by node here rather than with a field selector: not every API server indexes
      // spec.nodeName for pods, and there is one virt-handler per node.
      pods = (await this.#pods.list({ namespace: this.#namespace, labelSelector: VIRT_HANDLER_LABEL })).items;
    } catch (error) {
      throw internalError(
        `cannot list the virt-handler pods: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
    const pod = pods.find(
      (candidate) =>
        candidate.spec?.nodeName === node &&
        candidate.status?.phase === "Running" &&
        !candidate.metadata?.deletionTimestamp &&
        candidate.status.podIP,
    );
    if (!pod?.status?.podIP) {
      throw internalError(
        `no running virt-handler on node ${node} (pods labelled ${VIRT_HANDLER_LABEL} in ${this.#namespace})`,
      );
    }
    return pod.status.podIP;
  }
}
