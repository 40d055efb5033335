import { type Static, Type } from "@sinclair/typebox";
import { AffinitySchema } from "../core/affinity.js";
import { TemplateMetadataSchema } from "../core/object-meta.js";
import { PodDnsConfigSchema, TolerationSchema, TopologySpreadConstraintSchema } from "../core/scheduling.js";
import { Int64, StringEnum, StringMap } from "../schema/kube-types.js";
import { AccessCredentialSchema } from "./access-credentials.js";
import { DomainSpecSchema } from "./domain.js";
import { NetworkSchema } from "./networks.js";
import { ProbeSchema } from "./probe.js";
import { VolumeSchema } from "./volumes.js";

export const EVICTION_STRATEGIES = ["None", "LiveMigrate", "LiveMigrateIfPossible", "External"] as const;
export type EvictionStrategy = (typeof EVICTION_STRATEGIES)[number];

/** VirtualMachineInstanceSpec */
export const VirtualMachineInstanceSpecSchema = Type.Object({
  domain: DomainSpecSchema,
  volumes: Type.Optional(Type.Array(VolumeSchema, { maxItems: 256 })),
  networks: Type.Optional(Type.Array(NetworkSchema, { maxItems: 256 })),
  nodeSelector: Type.Optional(StringMap()),
  affinity: Type.Optional(AffinitySchema),
  tolerations: Type.Optional(Type.Array(TolerationSchema)),
  topologySpreadConstraints: Type.Optional(
    Type.Array(TopologySpreadConstraintSchema, {
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["topologyKey", "whenUnsatisfiable"],
    }),
  ),
  schedulerName: Type.Optional(Type.String()),
  priorityClassName: Type.Optional(Type.String()),
  serviceAccountName: Type.Optional(Type.String()),
  evictionStrategy: Type.Optional(StringEnum(EVICTION_STRATEGIES)),
  startStrategy: Type.Optional(StringEnum(["Paused"])),
  terminationGracePeriodSeconds: Type.Optional(Int64({ description: "Defaults to 30." })),
  livenessProbe: Type.Optional(ProbeSchema),
  readinessProbe: Type.Optional(ProbeSchema),
  hostname: Type.Optional(Type.String()),
  subdomain: Type.Optional(Type.String()),
  dnsPolicy: Type.Optional(
    Type.String({ description: "ClusterFirstWithHostNet, ClusterFirst, Default or None." }),
  ),
  dnsConfig: Type.Optional(PodDnsConfigSchema),
  accessCredentials: Type.Optional(
    Type.Array(AccessCredentialSchema, { maxItems: 256, "x-kubernetes-list-type": "atomic" }),
  ),
  architecture: Type.Optional(Type.String()),
  resourceClaims: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        resourceClaimName: Type.Optional(Type.String()),
        resourceClaimTemplateName: Type.Optional(Type.String()),
      }),
      { "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
    ),
  ),
  utilityVolumes: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        claimName: Type.String(),
        readOnly: Type.Optional(Type.Boolean()),
        type: Type.Optional(StringEnum(["MemoryDump", "Backup"])),
      }),
      { maxItems: 256, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] },
    ),
  ),
});
export type VirtualMachineInstanceSpec = Static<typeof VirtualMachineInstanceSpecSchema>;

/** VirtualMachineInstanceTemplateSpec: the template of a VM or a replica set. */
export const VirtualMachineInstanceTemplateSpecSchema = Type.Object({
  metadata: Type.Optional(TemplateMetadataSchema),
  spec: Type.Optional(VirtualMachineInstanceSpecSchema),
});
export type VirtualMachineInstanceTemplateSpec = Static<typeof VirtualMachineInstanceTemplateSpecSchema>;
