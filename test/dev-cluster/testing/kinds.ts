/** The parts of the objects the end-to-end test reads from `kubectl get -o json`. */

export interface List<T> {
  items: T[];
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface Node {
  metadata: { name: string };
  status: { conditions?: Condition[]; addresses?: { type: string; address: string }[] };
}

export interface Service {
  spec: { clusterIP?: string; ports?: { port: number; nodePort?: number }[] };
}

export interface Deployment {
  status: { availableReplicas?: number; conditions?: Condition[] };
}

export interface DaemonSet {
  status: {
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
  };
}

export interface Endpoints {
  subsets?: { addresses?: { ip: string }[] }[];
}

export interface EndpointSlice {
  endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[];
}

export interface Pod {
  metadata: { name: string; uid: string; labels?: Record<string, string> };
  spec: { nodeName?: string };
  status: {
    phase?: string;
    podIP?: string;
    conditions?: Condition[];
    containerStatuses?: {
      name: string;
      ready: boolean;
      restartCount: number;
      containerID?: string;
      state?: {
        waiting?: { reason?: string; message?: string };
        running?: { startedAt?: string };
        terminated?: { exitCode: number };
      };
      lastState?: { terminated?: { exitCode: number } };
    }[];
  };
}

function hasTrueCondition(conditions: readonly Condition[] | undefined, type: string): boolean {
  return conditions?.some((c) => c.type === type && c.status === "True") ?? false;
}

export const isReady = (pod: Pod): boolean => hasTrueCondition(pod.status.conditions, "Ready");
export const isNodeReady = (node: Node): boolean => hasTrueCondition(node.status.conditions, "Ready");
export const isAvailable = (deployment: Deployment): boolean =>
  hasTrueCondition(deployment.status.conditions, "Available");
