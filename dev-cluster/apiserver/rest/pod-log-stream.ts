import type { FastifyReply } from "fastify";
import { ApiError, badRequest } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { meta, stringField, uidOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { RequestTarget } from "../objects/request-target.js";
import type { PodLogSource } from "../pod-logs.js";
import { parsePodLogQuery } from "./pod-log-options.js";

const DEFAULT_CONTAINER_ANNOTATION = "kubectl.kubernetes.io/default-container";

function containerNames(pod: JsonObject, field: string): string[] {
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const list = spec[field];
  return (Array.isArray(list) ? list.filter(isJsonObject) : []).flatMap((c) => stringField(c, "name") ?? []);
}

/**
 * The container whose log is asked for: the one named (any container, init or ephemeral,
 * of the pod), else the one the default-container annotation names, else the first.
 */
export function logContainer(pod: JsonObject, requested: string | undefined, podName: string): string {
  const all = ["containers", "initContainers", "ephemeralContainers"].flatMap((f) => containerNames(pod, f));
  if (requested !== undefined) {
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${podName}`);
    return requested;
  }
  const annotations = meta(pod).annotations;
  const annotated = isJsonObject(annotations)
    ? stringField(annotations, DEFAULT_CONTAINER_ANNOTATION)
    : undefined;
  if (annotated !== undefined && all.includes(annotated)) return annotated;
  const first = containerNames(pod, "containers")[0];
  if (first === undefined) throw badRequest(`a container name must be specified for pod ${podName}`);
  return first;
}

/** What a kubelet answers when it has no log for the container. */
function noLog(container: string, podName: string, previous: boolean): ApiError {
  const message = previous
    ? `previous terminated container "${container}" in pod "${podName}" not found`
    : `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`;
  return new ApiError(400, "BadRequest", message);
}

/**
 * GET pods/<name>/log: the container's log from the node agent's PodLogSource, as text/plain,
 * streamed as it comes (chunked) so that `follow` works. When the client goes away, fastify
 * destroys the source's stream, which tells the source to stop.
 */
export async function streamPodLog(
  service: ObjectService,
  source: PodLogSource | undefined,
  target: RequestTarget,
  query: URLSearchParams,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const podName = target.name ?? "";
  const pod = service.get(target.type, target.namespace, podName);
  const { container: requested, ...options } = parsePodLogQuery(query, podName, service.now());
  const container = logContainer(pod, requested, podName);
  const stream = await source?.open({
    namespace: target.namespace,
    pod: podName,
    podUid: uidOf(pod),
    container,
    ...options,
  });
  if (!stream) throw noLog(container, podName, options.previous);
  return reply.code(200).type("text/plain").send(stream);
}
