import { type Static, Type } from "@sinclair/typebox";
import { AffinitySchema } from "../core/affinity.js";
import { LocalObjectReferenceSchema } from "../core/references.js";
import { PULL_POLICIES, TolerationSchema } from "../core/scheduling.js";
import { Duration, StringEnum, StringMap } from "../schema/kube-types.js";
import { KubeVirtConfigurationSchema } from "./configuration.js";

export const UNINSTALL_STRATEGIES = ["RemoveWorkloads", "BlockUninstallIfWorkloadsExist"] as const;
export const WORKLOAD_UPDATE_METHODS = ["LiveMigrate", "Evict"] as const;

/** ComponentConfig: where infrastructure components (`infra`) or VMs (`workloads`) may run. */
export const ComponentConfigSchema = Type.Object({
  nodePlacement: Type.Optional(
    Type.Object({
      nodeSelector: Type.Optional(StringMap()),
      affinity: Type.Optional(AffinitySchema),
      tolerations: Type.Optional(Type.Array(TolerationSchema)),
    }),
  ),
  replicas: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ComponentConfig = Static<typeof ComponentConfigSchema>;

const CertConfigSchema = Type.Object({
  duration: Type.Optional(Duration()),
  renewBefore: Type.Optional(Duration()),
});

export const KubeVirtSpecSchema = Type.Object({
  imageTag: Type.Optional(Type.String({ description: "Defaults to the operator's own tag." })),
  imageRegistry: Type.Optional(Type.String({ description: "Defaults to the operator's own registry." })),
  imagePullPolicy: Type.Optional(StringEnum(PULL_POLICIES)),
  imagePullSecrets: Type.Optional(
    Type.Array(LocalObjectReferenceSchema, { "x-kubernetes-list-type": "atomic" }),
  ),
  monitorNamespace: Type.Optional(Type.String()),
  serviceMonitorNamespace: Type.Optional(Type.String()),
  monitorAccount: Type.Optional(Type.String()),
  workloadUpdateStrategy: Type.Optional(
    Type.Object({
      workloadUpdateMethods: Type.Optional(
        Type.Array(StringEnum(WORKLOAD_UPDATE_METHODS), { "x-kubernetes-list-type": "atomic" }),
      ),
      batchEvictionSize: Type.Optional(Type.Integer({ description: "Defaults to 10." })),
      batchEvictionInterval: Type.Optional(Duration({ description: "Defaults to 1m0s." })),
    }),
  ),
  uninstallStrategy: Type.Optional(StringEnum(UNINSTALL_STRATEGIES)),
  certificateRotateStrategy: Type.Optional(
    Type.Object({
      selfSigned: Type.Optional(
        Type.Object({
          caRotateInterval: Type.Optional(Duration()),
          certRotateInterval: Type.Optional(Duration()),
          caOverlapInterval: Type.Optional(Duration()),
          ca: Type.Optional(CertConfigSchema),
          server: Type.Optional(CertConfigSchema),
        }),
      ),
    }),
  ),
  productVersion: Type.Optional(Type.String()),
  productName: Type.Optional(Type.String()),
  productComponent: Type.Optional(Type.String()),
  synchronizationPort: Type.Optional(Type.String()),
  configuration: Type.Optional(KubeVirtConfigurationSchema),
  infra: Type.Optional(ComponentConfigSchema),
  workloads: Type.Optional(ComponentConfigSchema),
  customizeComponents: Type.Optional(
    Type.Object({
      patches: Type.Optional(
        Type.Array(
          Type.Object({
            resourceName: Type.String({ minLength: 1 }),
            resourceType: Type.String({ minLength: 1 }),
            patch: Type.String(),
            type: StringEnum(["json", "merge", "strategic"]),
          }),
          { "x-kubernetes-list-type": "atomic" },
        ),
      ),
      flags: Type.Optional(
        Type.Object({
          api: Type.Optional(StringMap()),
          controller: Type.Optional(StringMap()),
          handler: Type.Optional(StringMap()),
        }),
      ),
    }),
  ),
});
export type KubeVirtSpec = Static<typeof KubeVirtSpecSchema>;
