import type { KubeVirtConfiguration } from "../kubevirt/configuration.js";
import type { KubeVirtSpec } from "../kubevirt/kubevirt-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child } from "./field-path.js";

/**
 * The KubeVirt CR's `spec.configuration` settings no component of kubevirt-ts reads yet, refused
 * when set, with "<field> is not supported yet": an admin who tunes TLS, host devices or live
 * updates should learn that nothing changed rather than believe it did. Settings that are read
 * (CPU model and request, machine types, emulation, overcommit, feature gates, the default
 * network binding and binding plugins, common instancetypes, the instancetype reference policy)
 * are not listed; api/README.md lists both.
 */
export function validateSupportedConfiguration(field: string, spec: KubeVirtSpec): Cause[] {
  const configuration = spec.configuration;
  if (configuration === undefined) return [];
  const configurationField = child(field, "configuration");
  return UNREAD_SETTINGS.filter((setting) => setting.asks(configuration)).map((setting) => {
    const path = child(configurationField, ...setting.path);
    return invalid(
      path,
      `${path} is not supported yet${setting.why === undefined ? "" : ` (${setting.why})`}`,
    );
  });
}

interface UnreadSetting {
  readonly path: readonly string[];
  readonly asks: (configuration: KubeVirtConfiguration) => boolean;
  readonly why?: string;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** A setting refused whenever it is present (an empty string or list asks for nothing). */
function whenSet(...path: string[]): UnreadSetting {
  return {
    path,
    asks: (configuration) => {
      const value = path.reduce<unknown>(
        (object, name) =>
          object !== null && typeof object === "object"
            ? (object as Record<string, unknown>)[name]
            : undefined,
        configuration,
      );
      if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
      return present(value);
    },
  };
}

const UNREAD_SETTINGS: readonly UnreadSetting[] = [
  {
    path: ["evictionStrategy"],
    asks: (c) => c.evictionStrategy !== undefined && c.evictionStrategy !== "None",
    why: "there is no live migration: an evicted VMI stops, as with None",
  },
  { ...whenSet("migrations"), why: "there is no live migration" },
  {
    path: ["vmRolloutStrategy"],
    asks: (c) => c.vmRolloutStrategy === "LiveUpdate",
    why: "a changed VM template takes effect on restart",
  },
  whenSet("liveUpdateConfiguration"),
  whenSet("permittedHostDevices"),
  whenSet("mediatedDevicesConfiguration"),
  whenSet("imagePullPolicy"),
  whenSet("defaultRuntimeClass"),
  whenSet("ovmfPath"),
  whenSet("emulatedMachines"),
  whenSet("smbios"),
  whenSet("supportContainerResources"),
  whenSet("obsoleteCPUModels"),
  {
    path: ["memBalloonStatsPeriod"],
    asks: (c) => c.memBalloonStatsPeriod !== undefined && c.memBalloonStatsPeriod !== 10,
    why: "the balloon reports every 10 seconds",
  },
  whenSet("virtualMachineOptions"),
  whenSet("ksmConfiguration"),
  whenSet("autoCPULimitNamespaceLabelSelector"),
  whenSet("selinuxLauncherType"),
  whenSet("seccompConfiguration"),
  {
    path: ["hypervisors"],
    asks: (c) => (c.hypervisors ?? []).some((hypervisor) => (hypervisor.name ?? "kvm") !== "kvm"),
    why: "the hypervisor is KVM",
  },
  {
    path: ["persistentReservationConfiguration", "enabled"],
    asks: (c) => c.persistentReservationConfiguration?.enabled === true,
  },
  whenSet("vmStateStorageClass"),
  whenSet("virtualMachineInstancesPerNode"),
  whenSet("additionalGuestMemoryOverheadRatio"),
  whenSet("supportedGuestAgentVersions"),
  whenSet("tlsConfiguration"),
  whenSet("apiConfiguration"),
  whenSet("webhookConfiguration"),
  whenSet("controllerConfiguration"),
  whenSet("handlerConfiguration"),
  {
    path: ["network", "permitBridgeInterfaceOnPodNetwork"],
    asks: (c) => c.network?.permitBridgeInterfaceOnPodNetwork === false,
    why: "bridge is always permitted on the pod network",
  },
  {
    path: ["network", "permitSlirpInterface"],
    asks: (c) => c.network?.permitSlirpInterface === true,
    why: "slirp was discontinued in KubeVirt v1.3",
  },
  whenSet("developerConfiguration", "nodeSelectors"),
  whenSet("developerConfiguration", "minimumClusterTSCFrequency"),
  whenSet("developerConfiguration", "pvcTolerateLessSpaceUpToPercent"),
  whenSet("developerConfiguration", "minimumReservePVCBytes"),
  whenSet("developerConfiguration", "diskVerification"),
  whenSet("developerConfiguration", "logVerbosity"),
  {
    path: ["developerConfiguration", "clusterProfiler"],
    asks: (c) => c.developerConfiguration?.clusterProfiler === true,
  },
];
