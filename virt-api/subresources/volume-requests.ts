/**
 * addvolume and removevolume, on VMs and VMIs: KubeVirt refuses them unless the KubeVirt CR
 * enables HotplugVolumes or DeclarativeHotplugVolumes (read live, as the webhooks read it), and
 * the gate decides where a VM's change goes: HotplugVolumes queues it for virt-controller in
 * `status.volumeRequests`; DeclarativeHotplugVolumes alone writes it into the VM's template.
 */
import { FEATURE_GATES } from "../../api/index.js";
import { badRequest } from "../status/status-error.js";
import type { Query } from "./request-options.js";
import type { RequestTarget } from "./request-target.js";
import type { SubresourceDependencies } from "./subresource-dependencies.js";
import { changeVmiVolumes, changeVmVolumes } from "./volume-change-writer.js";
import type { VolumeChange } from "./volume-changes.js";
import { addVolumeBodyOf, removeVolumeBodyOf } from "./volume-request-body.js";

export const HOTPLUG_DISABLED =
  "Enable DeclarativeHotplugVolumes or HotplugVolumes feature gate to use this API.";

export async function serveVolumeRequest(
  deps: Pick<SubresourceDependencies, "vms" | "vmis" | "clusterSettings" | "log">,
  target: RequestTarget & { readonly subresource: "addvolume" | "removevolume" },
  body: unknown,
  query: Query,
): Promise<void> {
  const gates = deps.clusterSettings.current().featureGates;
  const queued = gates.includes(FEATURE_GATES.hotplugVolumes);
  if (!queued && !gates.includes(FEATURE_GATES.declarativeHotplugVolumes)) throw badRequest(HOTPLUG_DISABLED);
  const { change, dryRun } = volumeChangeOf(target.subresource, body, query);
  const ref = { namespace: target.namespace, name: target.name };
  const options = { dryRun, log: deps.log };
  if (target.resource === "virtualmachineinstances") {
    await changeVmiVolumes(deps.vmis, ref, change, { ...options, ownedVmisToo: queued });
  } else {
    await changeVmVolumes(deps.vms, ref, change, {
      ...options,
      write: queued ? "volumeRequests" : "template",
    });
  }
}

function volumeChangeOf(
  subresource: "addvolume" | "removevolume",
  body: unknown,
  query: Query,
): { change: VolumeChange; dryRun: boolean } {
  if (subresource === "addvolume") {
    const { options, dryRun } = addVolumeBodyOf(body, query);
    return { change: { kind: "add", options }, dryRun };
  }
  const { options, dryRun } = removeVolumeBodyOf(body, query);
  return { change: { kind: "remove", options }, dryRun };
}
