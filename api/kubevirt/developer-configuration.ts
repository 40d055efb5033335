import { type Static, Type } from "@sinclair/typebox";
import { Int64, QuantityValue, StringMap } from "../schema/kube-types.js";

const Verbosity = () => Type.Optional(Type.Integer({ minimum: 0 }));

/** `spec.configuration.developerConfiguration`: feature gates, emulation, overcommit. */
export const DeveloperConfigurationSchema = Type.Object({
  featureGates: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  disabledFeatureGates: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  useEmulation: Type.Optional(
    Type.Boolean({ description: "Fall back to software emulation when KVM is missing." }),
  ),
  pvcTolerateLessSpaceUpToPercent: Type.Optional(Type.Integer()),
  minimumReservePVCBytes: Type.Optional(Type.Integer({ minimum: 0 })),
  memoryOvercommit: Type.Optional(Type.Integer({ minimum: 10, description: "Percent; defaults to 100." })),
  nodeSelectors: Type.Optional(StringMap()),
  cpuAllocationRatio: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        "vCPUs per requested node CPU: a launcher pod without a CPU request asks for vCPUs / ratio. Defaults to 10.",
    }),
  ),
  minimumClusterTSCFrequency: Type.Optional(Int64()),
  diskVerification: Type.Optional(Type.Object({ memoryLimit: QuantityValue() })),
  logVerbosity: Type.Optional(
    Type.Object({
      virtAPI: Verbosity(),
      virtController: Verbosity(),
      virtHandler: Verbosity(),
      virtLauncher: Verbosity(),
      virtOperator: Verbosity(),
      virtSynchronizationController: Verbosity(),
      nodeVerbosity: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }))),
    }),
  ),
  clusterProfiler: Type.Optional(Type.Boolean()),
});
export type DeveloperConfiguration = Static<typeof DeveloperConfigurationSchema>;
