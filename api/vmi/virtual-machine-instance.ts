import type { Static } from "@sinclair/typebox";
import { defineKind } from "../kind.js";
import { VirtualMachineInstanceSpecSchema } from "./vmi-spec.js";
import { VirtualMachineInstanceStatusSchema } from "./vmi-status.js";

const READY = ".status.conditions[?(@.type=='Ready')].status";

/**
 * VirtualMachineInstance: a running VM. It has no status subresource: virt-controller and
 * virt-handler change its labels and status together, in one write (as in KubeVirt).
 */
export const VirtualMachineInstanceKind = defineKind({
  kind: "VirtualMachineInstance",
  plural: "virtualmachineinstances",
  shortNames: ["vmi", "vmis"],
  categories: ["all"],
  spec: VirtualMachineInstanceSpecSchema,
  status: VirtualMachineInstanceStatusSchema,
  description:
    "VirtualMachineInstance is *the* VirtualMachineInstance Definition. It represents a virtual machine in the runtime environment of kubernetes.",
  printerColumns: [
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    { name: "Phase", type: "string", jsonPath: ".status.phase" },
    { name: "IP", type: "string", jsonPath: ".status.interfaces[0].ipAddress" },
    { name: "NodeName", type: "string", jsonPath: ".status.nodeName" },
    { name: "Ready", type: "string", jsonPath: READY },
    {
      name: "Live-Migratable",
      type: "string",
      jsonPath: ".status.conditions[?(@.type=='LiveMigratable')].status",
      priority: 1,
    },
    {
      name: "Paused",
      type: "string",
      jsonPath: ".status.conditions[?(@.type=='Paused')].status",
      priority: 1,
    },
  ],
  subresources: {},
});

export type VirtualMachineInstance = Static<typeof VirtualMachineInstanceKind.schema>;
