import type { Static } from "@sinclair/typebox";
import { defineKind } from "../kind.js";
import { VirtualMachineSpecSchema } from "./vm-spec.js";
import { VirtualMachineStatusSchema } from "./vm-status.js";

/** VirtualMachine: a VM that may or may not be running; it owns at most one VMI. */
export const VirtualMachineKind = defineKind({
  kind: "VirtualMachine",
  plural: "virtualmachines",
  shortNames: ["vm", "vms"],
  categories: ["all"],
  spec: VirtualMachineSpecSchema,
  status: VirtualMachineStatusSchema,
  description:
    "VirtualMachine handles the VirtualMachines that are not running or are in a stopped state. It contains the template to create the VirtualMachineInstance and mirrors its running state in its status.",
  printerColumns: [
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    {
      name: "Status",
      type: "string",
      jsonPath: ".status.printableStatus",
      description: "Human Readable Status",
    },
    { name: "Ready", type: "string", jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
  ],
  subresources: { status: true },
});

export type VirtualMachine = Static<typeof VirtualMachineKind.schema>;
