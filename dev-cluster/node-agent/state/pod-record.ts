import type { PodNetworkAttachment } from "../network/pod-network.js";

/**
 * What the agent records about each pod it runs, in `pods/<uid>/agent-state.json` of its data
 * dir: enough for a restarted agent (even after kill -9) to adopt the processes still running,
 * learn how the others ended, and carry on the pod's status as if it had never stopped.
 */
export interface PodRecord {
  version: 1;
  uid: string;
  namespace: string;
  name: string;
  /** The pod's network once made (absent for pods not started yet). */
  network?: PodNetworkAttachment;
  /** The network was removed (the pod ended); its addresses stay in the status, as kubelet keeps them. */
  networkRemoved?: boolean;
  /** RFC 3339: when the agent first acknowledged the pod (status.startTime). */
  startTime?: string;
  containers: ContainerRecord[];
  /** Deletion in progress: SIGTERM sent at `startedAt`, SIGKILL due at `killAt` (epoch ms). */
  termination?: { startedAt: number; killAt: number };
}

export interface ContainerRecord {
  name: string;
  init: boolean;
  image: string;
  imageID?: string;
  /** Restarts so far; also the number of the current (or last) instance, which names its log file. */
  restartCount: number;
  containerID?: string;
  /** RFC 3339: when the current instance started. */
  startedAt?: string;
  /** The current instance's process while it runs. */
  process?: { pid: number; startTicks: number };
  /** How the current instance ended (absent while it runs or before the first start). */
  terminated?: TerminatedRecord;
  /** How the previous instance ended (lastState). */
  lastTerminated?: TerminatedRecord;
  /** Crash-loop back-off: the next start is not before `restartAt` (epoch ms). */
  restartAt?: number;
  /** The back-off applied before `restartAt` (for the CrashLoopBackOff message). */
  backOffMs?: number;
  /** Back-off steps taken; reset after a long enough run. */
  backoffSteps: number;
  /** The image is not in the image map: ErrImagePull, then ImagePullBackOff until `retryAt`. */
  pull?: { failedAt: number; retryAt: number; attempts: number; message: string };
  /** The container's configuration cannot be resolved (CreateContainerConfigError). */
  configError?: string;
}

export interface TerminatedRecord {
  exitCode: number;
  /** Completed, Error, StartError or ContainerStatusUnknown. */
  reason: string;
  message?: string;
  startedAt?: string;
  finishedAt: string;
  containerID?: string;
}

/** Parses a stored record; throws when it is not one. */
export function parsePodRecord(text: string, source: string): PodRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON`, { cause: error });
  }
  const record = value as Partial<PodRecord> | null;
  if (
    record?.version !== 1 ||
    typeof record.uid !== "string" ||
    typeof record.name !== "string" ||
    typeof record.namespace !== "string" ||
    !Array.isArray(record.containers)
  ) {
    throw new Error(`${source} is not a pod record of this agent`);
  }
  return record as PodRecord;
}
