/** The console and vnc WebSockets of a VMI, through the API server's aggregation to virt-api. */
import type { WebSocket } from "ws";
import type { ApiClient } from "../api/api-client.js";
import { subresourcePath } from "../api/kubevirt-paths.js";

/** KubeVirt's subprotocol for console and VNC streams: binary frames, bytes as they are. */
export const PLAIN_STREAM_PROTOCOL = "plain.kubevirt.io";

export type VmiStream = "console" | "vnc";

/**
 * Opens the stream; resolves with the socket paused (see ApiClient.openWebSocket): call
 * `resume()` once listening, or the first bytes (VNC's greeting) are lost.
 */
export function openVmiStream(api: ApiClient, name: string, stream: VmiStream): Promise<WebSocket> {
  return api.openWebSocket(
    subresourcePath(api.namespace, "virtualmachineinstances", name, stream),
    PLAIN_STREAM_PROTOCOL,
  );
}
