import { type Static, Type } from "@sinclair/typebox";
import { PersistentVolumeClaimVolumeSourceProperties } from "../core/references.js";
import { compileValidator } from "../schema/validator.js";
import { DiskSchema } from "../vmi/disks.js";

/**
 * The bodies of the `addvolume` / `removevolume` subresources (KubeVirt's AddVolumeOptions and
 * RemoveVolumeOptions) and the queue of them a VM keeps in `status.volumeRequests`, which
 * virt-controller applies to the VM's template and its running VMI, then clears.
 */

/** HotplugVolumeSource: a claim or a DataVolume, the only sources that can be hotplugged. */
export const HotplugVolumeSourceSchema = Type.Object({
  persistentVolumeClaim: Type.Optional(
    Type.Object({
      ...PersistentVolumeClaimVolumeSourceProperties,
      hotpluggable: Type.Optional(Type.Boolean()),
    }),
  ),
  dataVolume: Type.Optional(
    Type.Object({ name: Type.String(), hotpluggable: Type.Optional(Type.Boolean()) }),
  ),
});
export type HotplugVolumeSource = Static<typeof HotplugVolumeSourceSchema>;

const DryRun = () =>
  Type.Optional(Type.Array(Type.String(), { description: '["All"]: check only, persist nothing.' }));

export const AddVolumeOptionsSchema = Type.Object({
  name: Type.String({ description: "The volume's and the disk's name in the VM spec." }),
  disk: DiskSchema,
  volumeSource: HotplugVolumeSourceSchema,
  dryRun: DryRun(),
});
export type AddVolumeOptions = Static<typeof AddVolumeOptionsSchema>;

export const RemoveVolumeOptionsSchema = Type.Object({
  name: Type.String({ description: "The volume to remove (its name, or its claim's or DataVolume's)." }),
  dryRun: DryRun(),
});
export type RemoveVolumeOptions = Static<typeof RemoveVolumeOptionsSchema>;

/** One entry of `vm.status.volumeRequests`: exactly one of the two is set. */
export const VirtualMachineVolumeRequestSchema = Type.Object({
  addVolumeOptions: Type.Optional(AddVolumeOptionsSchema),
  removeVolumeOptions: Type.Optional(RemoveVolumeOptionsSchema),
});
export type VirtualMachineVolumeRequest = Static<typeof VirtualMachineVolumeRequestSchema>;

export const addVolumeOptionsValidator = compileValidator(AddVolumeOptionsSchema);
export const removeVolumeOptionsValidator = compileValidator(RemoveVolumeOptionsSchema);

/** The claim or DataVolume an add request names ("" when it names neither). */
export function hotplugSourceName(source: HotplugVolumeSource): string {
  return source.dataVolume?.name ?? source.persistentVolumeClaim?.claimName ?? "";
}
