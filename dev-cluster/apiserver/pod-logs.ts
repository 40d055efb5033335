import type { Readable } from "node:stream";

/** What `GET pods/<name>/log` asks for (query parameters of kubectl logs). */
export interface PodLogRequest {
  namespace: string;
  pod: string;
  podUid: string;
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
}

/**
 * Where container logs come from: the node agent that runs the containers keeps them, as a
 * kubelet does, and the API server streams them to `kubectl logs`. The API server only knows
 * this interface.
 */
export interface PodLogSource {
  /**
   * The container's log as a stream (ending when the log ends, or, with `follow`, when the
   * container stops), or undefined when nothing has run for that container on this node.
   */
  open(request: PodLogRequest): Promise<Readable | undefined>;
}
