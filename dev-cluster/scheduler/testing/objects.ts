/** Small builders of pods and nodes for the scheduler's tests. */
import { deepFreeze, type Frozen } from "../../../runtime/index.js";
import type { Node, Pod, Taint } from "../kinds.js";

let uidSequence = 0;

export interface TestNodeOptions {
  labels?: Record<string, string>;
  allocatable?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  ready?: "True" | "False" | "Unknown" | "missing";
}

export function testNode(name: string, options: TestNodeOptions = {}): Frozen<Node> {
  const ready = options.ready ?? "True";
  return deepFreeze<Node>({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, uid: `node-${name}`, labels: { "kubernetes.io/hostname": name, ...options.labels } },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      allocatable: options.allocatable ?? { cpu: "4", memory: "8Gi", pods: "110" },
      conditions: ready === "missing" ? [] : [{ type: "Ready", status: ready }],
    },
  });
}

export function testPod(
  name: string,
  spec: Partial<NonNullable<Pod["spec"]>> = {},
  requests?: Record<string, string>,
): Frozen<Pod> {
  return deepFreeze<Pod>({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", uid: `pod-${name}-${uidSequence++}` },
    spec: {
      schedulerName: "default-scheduler",
      containers: [{ name: "main", image: "test", ...(requests ? { resources: { requests } } : {}) }],
      ...spec,
    },
    status: { phase: "Pending" },
  });
}

/** The pod bound to `nodeName` with `phase`, as the informer would show it. */
export function boundPod(
  pod: Frozen<Pod>,
  nodeName: string,
  phase: NonNullable<Pod["status"]>["phase"] = "Running",
): Frozen<Pod> {
  const copy = structuredClone(pod) as Pod;
  copy.spec = { ...copy.spec, containers: copy.spec?.containers ?? [], nodeName };
  copy.status = { ...copy.status, phase };
  return deepFreeze(copy);
}
