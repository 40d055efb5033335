import { type Static, Type } from "@sinclair/typebox";
import { LabelSelectorSchema } from "../core/label-selector.js";
import { PULL_POLICIES } from "../core/scheduling.js";
import { Marker, Nullable, QuantityValue, StringEnum } from "../schema/kube-types.js";
import { ResourceRequirementsWithoutClaimsSchema } from "../vmi/memory.js";
import { EVICTION_STRATEGIES } from "../vmi/vmi-spec.js";
import { DeveloperConfigurationSchema } from "./developer-configuration.js";
import { MigrationConfigurationSchema } from "./migration-configuration.js";

/** `spec.configuration` of the KubeVirt CR (KubeVirtConfiguration): the cluster-wide settings. */

const ArchSpecificSchema = Type.Object({
  ovmfPath: Type.Optional(Type.String()),
  emulatedMachines: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  machineType: Type.Optional(Type.String()),
});

const RestClientSchema = Type.Object({
  restClient: Type.Optional(
    Type.Object({
      rateLimiter: Type.Optional(
        Type.Object({
          tokenBucketRateLimiter: Type.Optional(Type.Object({ qps: Type.Number(), burst: Type.Integer() })),
        }),
      ),
    }),
  ),
});

const NetworkConfigurationSchema = Type.Object({
  defaultNetworkInterface: Type.Optional(
    Type.String({ description: "bridge (default), masquerade or slirp." }),
  ),
  permitSlirpInterface: Type.Optional(Type.Boolean()),
  permitBridgeInterfaceOnPodNetwork: Type.Optional(Type.Boolean({ description: "Defaults to true." })),
  binding: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({
        sidecarImage: Type.Optional(Type.String()),
        networkAttachmentDefinition: Type.Optional(Type.String()),
        domainAttachmentType: Type.Optional(Type.String()),
        migration: Type.Optional(Type.Object({ method: Type.Optional(Type.String()) })),
        downwardAPI: Type.Optional(Type.String()),
        computeResourceOverhead: Type.Optional(ResourceRequirementsWithoutClaimsSchema),
      }),
    ),
  ),
});

const PermittedHostDevicesSchema = Type.Object({
  usb: Type.Optional(
    Type.Array(
      Type.Object({
        resourceName: Type.String(),
        selectors: Type.Optional(
          Type.Array(Type.Object({ vendor: Type.String(), product: Type.String() }), {
            "x-kubernetes-list-type": "atomic",
          }),
        ),
        externalResourceProvider: Type.Optional(Type.Boolean()),
      }),
      { "x-kubernetes-list-type": "atomic" },
    ),
  ),
  pciHostDevices: Type.Optional(
    Type.Array(
      Type.Object({
        pciVendorSelector: Type.String(),
        resourceName: Type.String(),
        externalResourceProvider: Type.Optional(Type.Boolean()),
      }),
      { "x-kubernetes-list-type": "atomic" },
    ),
  ),
  mediatedDevices: Type.Optional(
    Type.Array(
      Type.Object({
        mdevNameSelector: Type.String(),
        resourceName: Type.String(),
        externalResourceProvider: Type.Optional(Type.Boolean()),
      }),
      { "x-kubernetes-list-type": "atomic" },
    ),
  ),
});

export const KubeVirtConfigurationSchema = Type.Object({
  cpuModel: Type.Optional(Type.String()),
  cpuRequest: Type.Optional(
    QuantityValue({
      description:
        "CPU request of each VMI without one; unset, the launcher pod asks for vCPUs / cpuAllocationRatio (100m a vCPU).",
    }),
  ),
  developerConfiguration: Type.Optional(DeveloperConfigurationSchema),
  emulatedMachines: Type.Optional(Type.Array(Type.String())),
  imagePullPolicy: Type.Optional(StringEnum(PULL_POLICIES)),
  migrations: Type.Optional(MigrationConfigurationSchema),
  machineType: Type.Optional(Type.String()),
  network: Type.Optional(NetworkConfigurationSchema),
  ovmfPath: Type.Optional(Type.String()),
  selinuxLauncherType: Type.Optional(Type.String()),
  defaultRuntimeClass: Type.Optional(Type.String()),
  smbios: Type.Optional(
    Type.Object({
      manufacturer: Type.Optional(Type.String()),
      product: Type.Optional(Type.String()),
      version: Type.Optional(Type.String()),
      sku: Type.Optional(Type.String()),
      family: Type.Optional(Type.String()),
    }),
  ),
  architectureConfiguration: Type.Optional(
    Type.Object({
      amd64: Type.Optional(ArchSpecificSchema),
      arm64: Type.Optional(ArchSpecificSchema),
      ppc64le: Type.Optional(ArchSpecificSchema),
      s390x: Type.Optional(ArchSpecificSchema),
      defaultArchitecture: Type.Optional(Type.String()),
    }),
  ),
  evictionStrategy: Type.Optional(StringEnum(EVICTION_STRATEGIES)),
  additionalGuestMemoryOverheadRatio: Type.Optional(Type.String({ description: "Defaults to 1." })),
  supportContainerResources: Type.Optional(
    Type.Array(Type.Object({ type: Type.String(), resources: ResourceRequirementsWithoutClaimsSchema }), {
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["type"],
    }),
  ),
  supportedGuestAgentVersions: Type.Optional(Type.Array(Type.String())),
  memBalloonStatsPeriod: Type.Optional(Type.Integer({ minimum: 0 })),
  permittedHostDevices: Type.Optional(PermittedHostDevicesSchema),
  obsoleteCPUModels: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  virtualMachineInstancesPerNode: Type.Optional(Type.Integer()),
  apiConfiguration: Type.Optional(RestClientSchema),
  webhookConfiguration: Type.Optional(RestClientSchema),
  controllerConfiguration: Type.Optional(RestClientSchema),
  handlerConfiguration: Type.Optional(RestClientSchema),
  tlsConfiguration: Type.Optional(
    Type.Object({
      minTLSVersion: Type.Optional(
        StringEnum(["VersionTLS10", "VersionTLS11", "VersionTLS12", "VersionTLS13"]),
      ),
      ciphers: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "set" })),
    }),
  ),
  vmStateStorageClass: Type.Optional(Type.String()),
  virtualMachineOptions: Type.Optional(
    Type.Object({
      disableFreePageReporting: Type.Optional(Marker()),
      disableSerialConsoleLog: Type.Optional(Marker()),
    }),
  ),
  ksmConfiguration: Type.Optional(Type.Object({ nodeLabelSelector: Type.Optional(LabelSelectorSchema) })),
  autoCPULimitNamespaceLabelSelector: Type.Optional(LabelSelectorSchema),
  liveUpdateConfiguration: Type.Optional(
    Type.Object({
      maxHotplugRatio: Type.Optional(Type.Integer({ minimum: 0 })),
      maxCpuSockets: Type.Optional(Type.Integer({ minimum: 0 })),
      maxGuest: Type.Optional(QuantityValue()),
    }),
  ),
  vmRolloutStrategy: Type.Optional(Type.Union([StringEnum(["Stage", "LiveUpdate"]), Type.Null()])),
  commonInstancetypesDeployment: Type.Optional(
    Type.Union([
      Type.Object({ enabled: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])) }),
      Type.Null(),
    ]),
  ),
  instancetype: Type.Optional(
    Type.Union([
      Type.Object({
        referencePolicy: Type.Optional(
          Type.Union([StringEnum(["reference", "expand", "expandAll"]), Type.Null()]),
        ),
      }),
      Type.Null(),
    ]),
  ),
  roleAggregationStrategy: Type.Optional(StringEnum(["AggregateToDefault", "Manual"])),
  minCPUModel: Type.Optional(Type.String({ description: "Deprecated." })),
  mediatedDevicesConfiguration: Type.Optional(
    Type.Object({
      mediatedDevicesTypes: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
      mediatedDeviceTypes: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
      enabled: Type.Optional(Type.Boolean()),
    }),
  ),
  seccompConfiguration: Type.Optional(
    Type.Object({
      virtualMachineInstanceProfile: Type.Optional(
        Type.Object({
          customProfile: Type.Optional(
            Type.Object({
              localhostProfile: Type.Optional(Type.String()),
              runtimeDefaultProfile: Type.Optional(Type.Boolean()),
            }),
          ),
        }),
      ),
    }),
  ),
  virtTemplateDeployment: Type.Optional(
    Nullable(Type.Object({ enabled: Type.Optional(Nullable(Type.Boolean())) })),
  ),
  persistentReservationConfiguration: Type.Optional(
    Nullable(Type.Object({ enabled: Type.Optional(Nullable(Type.Boolean())) })),
  ),
  hypervisors: Type.Optional(
    Type.Array(Type.Object({ name: Type.Optional(StringEnum(["kvm", "hyperv-direct"])) }), {
      maxItems: 1,
      "x-kubernetes-list-type": "atomic",
    }),
  ),
});
export type KubeVirtConfiguration = Static<typeof KubeVirtConfigurationSchema>;
