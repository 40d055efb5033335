import { type Static, Type } from "@sinclair/typebox";
import { Int32, QuantityValue, StringMap } from "../schema/kube-types.js";
import { CpuSchema } from "../vmi/cpu.js";
import { GpuSchema, HostDeviceSchema } from "../vmi/devices.js";
import { DomainSpecSchema } from "../vmi/domain.js";
import { MemorySchema } from "../vmi/memory.js";

/**
 * VirtualMachineInstancetypeSpec (`instancetype.kubevirt.io/v1beta1`): the resources a VM gets
 * by name. `cpu.guest` and `memory.guest` are required, as in KubeVirt. The nested shapes reuse
 * the VMI's, so a value accepted here is one the VMI accepts once expanded.
 */

export const CpuInstancetypeSchema = Type.Object({
  guest: Int32({ minimum: 1, description: "Number of vCPUs exposed to the guest." }),
  model: Type.Optional(Type.String()),
  dedicatedCPUPlacement: Type.Optional(Type.Boolean()),
  numa: CpuSchema.properties.numa,
  isolateEmulatorThread: Type.Optional(Type.Boolean()),
  realtime: CpuSchema.properties.realtime,
  maxSockets: Type.Optional(Int32({ minimum: 1 })),
});
export type CpuInstancetype = Static<typeof CpuInstancetypeSchema>;

export const MemoryInstancetypeSchema = Type.Object({
  guest: QuantityValue({ description: "Memory visible inside the guest." }),
  hugepages: MemorySchema.properties.hugepages,
  overcommitPercent: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description: "Share of the guest memory the launcher pod does not request.",
    }),
  ),
  maxGuest: Type.Optional(QuantityValue()),
});
export type MemoryInstancetype = Static<typeof MemoryInstancetypeSchema>;

export const VirtualMachineInstancetypeSpecSchema = Type.Object({
  nodeSelector: Type.Optional(StringMap()),
  schedulerName: Type.Optional(Type.String()),
  cpu: CpuInstancetypeSchema,
  memory: MemoryInstancetypeSchema,
  gpus: Type.Optional(Type.Array(GpuSchema, { "x-kubernetes-list-type": "atomic" })),
  hostDevices: Type.Optional(Type.Array(HostDeviceSchema, { "x-kubernetes-list-type": "atomic" })),
  ioThreadsPolicy: DomainSpecSchema.properties.ioThreadsPolicy,
  ioThreads: DomainSpecSchema.properties.ioThreads,
  launchSecurity: DomainSpecSchema.properties.launchSecurity,
  annotations: Type.Optional(StringMap()),
});
export type VirtualMachineInstancetypeSpec = Static<typeof VirtualMachineInstancetypeSpecSchema>;
