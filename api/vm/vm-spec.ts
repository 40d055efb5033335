import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../schema/kube-types.js";
import { VirtualMachineInstanceTemplateSpecSchema } from "../vmi/vmi-spec.js";
import { DataVolumeTemplateSchema } from "./data-volume-template.js";

export const RUN_STRATEGIES = [
  "Always",
  "RerunOnFailure",
  "Manual",
  "Halted",
  "Once",
  "WaitAsReceiver",
] as const;
export type RunStrategy = (typeof RUN_STRATEGIES)[number];

const MatcherProperties = {
  name: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  revisionName: Type.Optional(Type.String()),
  inferFromVolume: Type.Optional(Type.String()),
  inferFromVolumeFailurePolicy: Type.Optional(StringEnum(["Reject", "Ignore"])),
};

/** VirtualMachineSpec: `runStrategy` or the deprecated `running` (exactly one), and the VMI template. */
export const VirtualMachineSpecSchema = Type.Object({
  runStrategy: Type.Optional(
    StringEnum(RUN_STRATEGIES, {
      description: "Always, RerunOnFailure, Manual, Halted or Once; excludes running.",
    }),
  ),
  running: Type.Optional(
    Type.Boolean({ description: "Deprecated: use runStrategy (true = Always, false = Halted)." }),
  ),
  template: VirtualMachineInstanceTemplateSpecSchema,
  instancetype: Type.Optional(Type.Object(MatcherProperties)),
  preference: Type.Optional(Type.Object(MatcherProperties)),
  dataVolumeTemplates: Type.Optional(Type.Array(DataVolumeTemplateSchema)),
  updateVolumesStrategy: Type.Optional(StringEnum(["Migration", "Replacement"])),
});
export type VirtualMachineSpec = Static<typeof VirtualMachineSpecSchema>;
