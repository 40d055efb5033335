/**
 * The PUTs behind start, stop, restart (on the VM) and pause, unpause (on its VMI), with
 * KubeVirt's bodies (StartOptions, StopOptions, RestartOptions, Pause/UnpauseOptions). virt-api
 * decides what each does; virtctl reports what it says.
 */
import type { ApiClient } from "../api/api-client.js";
import { explainFailure } from "../api/explain-failure.js";
import { type KubeVirtResource, subresourcePath } from "../api/kubevirt-paths.js";

export type LifecycleSubresource = "start" | "stop" | "restart" | "pause" | "unpause";

/** KubeVirt's `dryRun: ["All"]`: the server checks everything and changes nothing. */
export function dryRunField(dryRun: boolean): { dryRun?: string[] } {
  return dryRun ? { dryRun: ["All"] } : {};
}

export async function requestLifecycleChange(
  api: ApiClient,
  resource: KubeVirtResource,
  name: string,
  subresource: LifecycleSubresource,
  body: Record<string, unknown>,
): Promise<void> {
  try {
    await api.send("PUT", subresourcePath(api.namespace, resource, name, subresource), body);
  } catch (error) {
    const kind = resource === "virtualmachines" ? "VirtualMachine" : "VirtualMachineInstance";
    throw await explainFailure(api, error, {
      action: `cannot ${subresource} ${kind} ${name}`,
      resource,
      name,
    });
  }
}

/** KubeVirt's confirmation: `VM x was scheduled to start`. */
export function scheduledMessage(
  kind: "VM" | "VMI",
  name: string,
  subresource: LifecycleSubresource,
  dryRun: boolean,
): string {
  return `${kind} ${name} was scheduled to ${subresource}${dryRun ? " (dry run: nothing was changed)" : ""}\n`;
}
