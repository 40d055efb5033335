/**
 * One tunnel: the portforward WebSocket of a VM or VMI
 * (`.../NAME/portforward/{port}/{protocol}`), through the API server's aggregation to virt-api,
 * which dials the guest. Resolves with the socket paused (ApiClient.openWebSocket).
 */
import type { WebSocket } from "ws";
import type { ApiClient } from "../api/api-client.js";
import { explainFailure } from "../api/explain-failure.js";
import { subresourcePath } from "../api/kubevirt-paths.js";
import { PLAIN_STREAM_PROTOCOL } from "../streams/stream-paths.js";
import { type ForwardTarget, resourceOfKind } from "./forward-target.js";
import type { ForwardedPort } from "./forwarded-ports.js";

/** `api`'s namespace is the target's (the caller connects with it). */
export async function openPortForward(
  api: ApiClient,
  target: ForwardTarget,
  port: Pick<ForwardedPort, "remote" | "protocol">,
): Promise<WebSocket> {
  const resource = resourceOfKind(target.kind);
  const path = subresourcePath(
    api.namespace,
    resource,
    target.name,
    `portforward/${port.remote}/${port.protocol}`,
  );
  try {
    return await api.openWebSocket(path, PLAIN_STREAM_PROTOCOL);
  } catch (error) {
    throw await explainFailure(api, error, {
      action: `cannot forward to ${port.protocol} port ${port.remote} of ${target.kind}/${target.name}`,
      resource,
      name: target.name,
    });
  }
}
