import { type Static, Type } from "@sinclair/typebox";
import { Marker, StringEnum } from "../schema/kube-types.js";
import { ClockSchema } from "./clock.js";
import { CpuSchema } from "./cpu.js";
import { DevicesSchema } from "./devices.js";
import { FeaturesSchema } from "./features.js";
import { ChassisSchema, FirmwareSchema, MachineSchema } from "./firmware.js";
import { MemorySchema, ResourceRequirementsSchema } from "./memory.js";

/** AMD SEV / SEV-SNP and Intel TDX (accepted so manifests apply; not implemented by kubevirt-ts). */
const LaunchSecuritySchema = Type.Object({
  sev: Type.Optional(
    Type.Object({
      policy: Type.Optional(Type.Object({ encryptedState: Type.Optional(Type.Boolean()) })),
      attestation: Type.Optional(Marker()),
      session: Type.Optional(Type.String()),
      dhCert: Type.Optional(Type.String()),
    }),
  ),
  snp: Type.Optional(
    Type.Object(
      Object.fromEntries(
        [
          "policy",
          "vcek",
          "authorKey",
          "kernelHashes",
          "cbitpos",
          "idBlock",
          "idAuth",
          "reducedPhysBits",
        ].map((name) => [name, Type.Optional(Type.String())]),
      ),
    ),
  ),
  tdx: Type.Optional(Marker()),
});

/** `spec.domain`: the virtual hardware. `devices` is required, as in KubeVirt. */
export const DomainSpecSchema = Type.Object({
  resources: Type.Optional(ResourceRequirementsSchema),
  cpu: Type.Optional(CpuSchema),
  memory: Type.Optional(MemorySchema),
  machine: Type.Optional(MachineSchema),
  firmware: Type.Optional(FirmwareSchema),
  clock: Type.Optional(ClockSchema),
  features: Type.Optional(FeaturesSchema),
  devices: DevicesSchema,
  ioThreadsPolicy: Type.Optional(StringEnum(["shared", "auto", "supplementalPool"])),
  ioThreads: Type.Optional(
    Type.Object({ supplementalPoolThreadCount: Type.Optional(Type.Integer({ minimum: 0 })) }),
  ),
  chassis: Type.Optional(ChassisSchema),
  rebootPolicy: Type.Optional(StringEnum(["Reboot", "Terminate"])),
  launchSecurity: Type.Optional(LaunchSecuritySchema),
});
export type DomainSpec = Static<typeof DomainSpecSchema>;
