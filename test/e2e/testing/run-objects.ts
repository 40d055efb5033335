// Reads of the run's namespace through the runtime's client: VMs, VMIs and launcher pods, and the
// waits the tests build on them.
import { isNotFound, type KubeClient } from "../../../runtime/index.js";
import {
  LAUNCHER_SELECTOR,
  type Pod,
  podKind,
  type VirtualMachine,
  type VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "./kinds.js";
import { pollUntil } from "./poll.js";

async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export class RunObjects {
  readonly namespace: string;
  readonly #client: KubeClient;

  constructor(client: KubeClient, namespace: string) {
    this.#client = client;
    this.namespace = namespace;
  }

  vm(name: string): Promise<VirtualMachine | undefined> {
    return orUndefined(this.#client.resource(vmKind).get({ namespace: this.namespace, name }));
  }

  vmi(name: string): Promise<VirtualMachineInstance | undefined> {
    return orUndefined(this.#client.resource(vmiKind).get({ namespace: this.namespace, name }));
  }

  async vmis(): Promise<VirtualMachineInstance[]> {
    return (await this.#client.resource(vmiKind).list({ namespace: this.namespace })).items;
  }

  /** Launcher pods of the namespace, or of one VM's VMI (virt-controller labels them `vm.kubevirt.io/name`). */
  async launcherPods(vmName?: string): Promise<Pod[]> {
    const selector = vmName ? `${LAUNCHER_SELECTOR},vm.kubevirt.io/name=${vmName}` : LAUNCHER_SELECTOR;
    return (await this.#client.resource(podKind).list({ namespace: this.namespace, labelSelector: selector }))
      .items;
  }

  /** Waits for the VM's VMI to be in `phase`; `notUid` skips an earlier VMI of the same name. */
  async waitForVmiPhase(
    name: string,
    phase: string,
    options: { timeoutMs?: number; notUid?: string } = {},
  ): Promise<VirtualMachineInstance> {
    let last: VirtualMachineInstance | undefined;
    return pollUntil(
      `the VMI ${this.namespace}/${name} to be ${phase}${options.notUid ? " (a new one)" : ""}`,
      async () => {
        last = await this.vmi(name);
        if (!last || last.metadata?.uid === options.notUid) return undefined;
        return last.status?.phase === phase ? last : undefined;
      },
      { timeoutMs: options.timeoutMs ?? 60_000, lastSeen: () => JSON.stringify(last?.status ?? "no VMI") },
    );
  }

  /** Waits for the VM's printableStatus. */
  async waitForVmStatus(name: string, status: string, timeoutMs = 60_000): Promise<VirtualMachine> {
    let last: VirtualMachine | undefined;
    return pollUntil(
      `the VM ${this.namespace}/${name} to be ${status}`,
      async () => {
        last = await this.vm(name);
        return last?.status?.printableStatus === status ? last : undefined;
      },
      { timeoutMs, lastSeen: () => JSON.stringify(last?.status ?? "no VM") },
    );
  }
}
