/** Cached-object stand-ins for virt-controller's unit tests (frozen, as informers hand them out). */
import type { RunStrategy, VirtualMachineInstancePhase } from "../../api/index.js";
import { deepFreeze, type Frozen } from "../../runtime/index.js";
import type { Pod, VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "./fixtures.js";

export function cachedVm(
  strategy: RunStrategy,
  status: VirtualMachine["status"] = undefined,
  extra: { deleting?: boolean } = {},
): Frozen<VirtualMachine> {
  return deepFreeze<VirtualMachine>({
    metadata: {
      name: "vm",
      namespace: "ns",
      uid: "vm-uid",
      generation: 2,
      resourceVersion: "10",
      ...(extra.deleting ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}),
    },
    spec: { runStrategy: strategy, template: { spec: smallVmiSpec() } },
    ...(status ? { status } : {}),
  });
}

export function cachedVmi(
  phase: VirtualMachineInstancePhase | undefined,
  extra: {
    uid?: string;
    deleting?: boolean;
    nodeName?: string;
    wasRunning?: boolean;
    conditions?: NonNullable<VirtualMachineInstance["status"]>["conditions"];
    finalizers?: string[];
  } = {},
): Frozen<VirtualMachineInstance> {
  const transitions = [
    ...(extra.wasRunning
      ? [{ phase: "Running" as const, phaseTransitionTimestamp: "2024-01-01T00:00:00Z" }]
      : []),
  ];
  return deepFreeze<VirtualMachineInstance>({
    metadata: {
      name: "vm",
      namespace: "ns",
      uid: extra.uid ?? "vmi-uid",
      resourceVersion: "20",
      annotations: { "kubevirt.io/vm-generation": "2" },
      ownerReferences: [
        { apiVersion: "kubevirt.io/v1", kind: "VirtualMachine", name: "vm", uid: "vm-uid", controller: true },
      ],
      ...(extra.deleting ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    },
    spec: smallVmiSpec(),
    ...(phase || extra.nodeName || extra.conditions || transitions.length > 0
      ? {
          status: {
            ...(phase ? { phase } : {}),
            ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
            ...(extra.conditions ? { conditions: extra.conditions } : {}),
            ...(transitions.length > 0 ? { phaseTransitionTimestamps: transitions } : {}),
          },
        }
      : {}),
  });
}

export function launcherPod(state: {
  node?: string;
  phase?: "Pending" | "Running" | "Failed" | "Succeeded";
  unschedulable?: string;
  pullError?: boolean;
  deleting?: boolean;
}): Frozen<Pod> {
  return deepFreeze<Pod>({
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "virt-launcher-vm-abcde",
      namespace: "ns",
      uid: "pod-uid",
      creationTimestamp: "2024-01-01T00:00:00Z",
      ...(state.deleting ? { deletionTimestamp: "2024-01-01T00:00:01Z" } : {}),
    },
    spec: {
      containers: [{ name: "compute", image: "virt-launcher" }],
      ...(state.node ? { nodeName: state.node } : {}),
    },
    status: {
      phase: state.phase ?? "Pending",
      qosClass: "Burstable",
      ...(state.unschedulable
        ? {
            conditions: [
              {
                type: "PodScheduled",
                status: "False",
                reason: "Unschedulable",
                message: state.unschedulable,
                lastTransitionTime: "2024-01-01T00:00:00Z",
              },
            ],
          }
        : {}),
      ...(state.pullError
        ? {
            containerStatuses: [
              {
                name: "compute",
                image: "virt-launcher",
                imageID: "",
                ready: false,
                restartCount: 0,
                state: { waiting: { reason: "ErrImagePull", message: "not found" } },
              },
            ],
          }
        : {}),
    },
  });
}
