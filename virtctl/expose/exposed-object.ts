/**
 * What `virtctl expose TYPE NAME` exposes: the object read from the API server, the selector a
 * Service needs to reach its launcher pods, the ports its pod-network interface lists, and the
 * owner reference that makes the Service go with it (KubeVirt's `getResourceInfo`).
 */
import type { IServicePort } from "kubernetes-models/v1/ServicePort";
import {
  API_VERSION,
  type OwnerReference,
  type VirtualMachine,
  type VirtualMachineInstance,
  type VirtualMachineInstanceReplicaSet,
  type VirtualMachineInstanceSpec,
  VMI_ID_LABEL,
  vmiIdOf,
} from "../../api/index.js";
import type { ApiClient } from "../api/api-client.js";
import { explainFailure } from "../api/explain-failure.js";
import { type KubeVirtResource, objectPath } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";

type ExposableKind = "VirtualMachineInstance" | "VirtualMachine" | "VirtualMachineInstanceReplicaSet";

export interface Exposable {
  readonly kind: ExposableKind;
  readonly resource: KubeVirtResource;
}

/** KubeVirt's spellings of TYPE (matched case-insensitively), singular and plural. */
const EXPOSABLES: readonly (Exposable & { readonly types: readonly string[] })[] = [
  {
    kind: "VirtualMachineInstance",
    resource: "virtualmachineinstances",
    types: ["vmi", "vmis", "virtualmachineinstance", "virtualmachineinstances"],
  },
  {
    kind: "VirtualMachine",
    resource: "virtualmachines",
    types: ["vm", "vms", "virtualmachine", "virtualmachines"],
  },
  {
    kind: "VirtualMachineInstanceReplicaSet",
    resource: "virtualmachineinstancereplicasets",
    types: ["vmirs", "vmirss", "virtualmachineinstancereplicaset", "virtualmachineinstancereplicasets"],
  },
];

export interface ExposedObject {
  readonly selector: Readonly<Record<string, string>>;
  /** The pod-network interface's ports as `port-1`, `port-2`, ...; empty when it lists none. */
  readonly interfacePorts: readonly IServicePort[];
  readonly owner: OwnerReference;
}

/** Refuses a TYPE that is not one of KubeVirt's spellings, before anything is read. */
export function exposableOf(type: string): Exposable {
  const exposable = EXPOSABLES.find((candidate) => candidate.types.includes(type.toLowerCase()));
  if (!exposable) throw new CliError(`unsupported resource type: ${type}; use vmi, vm or vmirs`);
  return { kind: exposable.kind, resource: exposable.resource };
}

export async function readExposedObject(
  api: ApiClient,
  exposable: Exposable,
  name: string,
): Promise<ExposedObject> {
  switch (exposable.kind) {
    case "VirtualMachineInstance": {
      const vmi = await fetchObject<VirtualMachineInstance>(api, exposable, name);
      return launcherPodsOf(vmi, exposable.kind, vmi.spec);
    }
    case "VirtualMachine": {
      // The VM's VMI has the VM's name, so its id is the VM's: the Service outlives restarts.
      const vm = await fetchObject<VirtualMachine>(api, exposable, name);
      return launcherPodsOf(vm, exposable.kind, vm.spec?.template?.spec);
    }
    case "VirtualMachineInstanceReplicaSet": {
      const vmirs = await fetchObject<VirtualMachineInstanceReplicaSet>(api, exposable, name);
      return {
        selector: replicaSetSelector(vmirs),
        interfacePorts: podNetworkPorts(vmirs.spec?.template?.spec),
        owner: ownerReference(vmirs, exposable.kind),
      };
    }
  }
}

interface Named {
  readonly metadata?: { readonly name?: string; readonly uid?: string };
}

function launcherPodsOf(
  object: Named,
  kind: ExposableKind,
  spec: VirtualMachineInstanceSpec | undefined,
): ExposedObject {
  return {
    selector: { [VMI_ID_LABEL]: vmiIdOf(object.metadata?.name ?? "") },
    interfacePorts: podNetworkPorts(spec),
    owner: ownerReference(object, kind),
  };
}

/** A Service selects by labels only: the VMIRS's matchLabels, and nothing when it has expressions. */
function replicaSetSelector(vmirs: VirtualMachineInstanceReplicaSet): Readonly<Record<string, string>> {
  const selector = vmirs.spec?.selector;
  const name = vmirs.metadata?.name ?? "";
  if (!selector?.matchLabels || Object.keys(selector.matchLabels).length === 0) {
    throw new CliError(
      `cannot expose VirtualMachineInstanceReplicaSet without any selector labels; give ${name} spec.selector.matchLabels`,
    );
  }
  if ((selector.matchExpressions ?? []).length > 0) {
    throw new CliError(
      `cannot expose VirtualMachineInstanceReplicaSet with match expressions; select ${name}'s VMIs by spec.selector.matchLabels alone`,
    );
  }
  return selector.matchLabels;
}

/** The ports of the interface on the first pod network (KubeVirt's `podNetworkPorts`). */
function podNetworkPorts(spec: VirtualMachineInstanceSpec | undefined): IServicePort[] {
  const podNetwork = spec?.networks?.find((network) => network.pod !== undefined);
  if (!podNetwork) return [];
  const podInterface = spec?.domain?.devices?.interfaces?.find((iface) => iface.name === podNetwork.name);
  return (podInterface?.ports ?? []).map((port, index) => ({
    name: `port-${index + 1}`,
    ...(port.protocol ? { protocol: port.protocol as NonNullable<IServicePort["protocol"]> } : {}),
    port: port.port,
  }));
}

/** metav1.NewControllerRef, with blockOwnerDeletion false: deleting the VM never waits for its Service. */
function ownerReference(object: Named, kind: ExposableKind): OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind,
    name: object.metadata?.name ?? "",
    uid: object.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: false,
  };
}

async function fetchObject<T>(api: ApiClient, exposable: Exposable, name: string): Promise<T> {
  try {
    return await api.get<T>(objectPath(api.namespace, exposable.resource, name));
  } catch (error) {
    const action = `error fetching ${exposable.kind}`;
    const explained = await explainFailure(api, error, { action, resource: exposable.resource, name });
    // KubeVirt's prefix first, whatever explainFailure found to say (the missing object, the namespace).
    if (explained.message.startsWith(action)) throw explained;
    throw new CliError(`${action}: ${explained.message}`, { cause: error });
  }
}
