/**
 * virt-api's own connection to the guest's port, as KubeVirt's `net.Dial(protocol, ip:port)`:
 * TCP is connected before the caller's upgrade is accepted, so a refused port is a 500 "dialing
 * VM: ..." the caller reads rather than a stream that closes at once. UDP has no handshake: the
 * socket is connected (so only the guest's datagrams come back) and that is all.
 */
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { connect, isIPv6, type Socket } from "node:net";
import { internalError } from "../status/status-error.js";
import type { ForwardedPort } from "./forwarded-port.js";

export type GuestConnection =
  | { readonly protocol: "tcp"; readonly socket: Socket }
  | { readonly protocol: "udp"; readonly socket: UdpSocket };

/** A guest that takes longer than this to answer a SYN is as good as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function dialGuest(address: string, forwarded: ForwardedPort): Promise<GuestConnection> {
  const hostPort = `${isIPv6(address) ? `[${address}]` : address}:${forwarded.port}`;
  try {
    return forwarded.protocol === "tcp"
      ? { protocol: "tcp", socket: await connectTcp(address, forwarded.port) }
      : { protocol: "udp", socket: await connectUdp(address, forwarded.port) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw internalError(`dialing VM: dial ${forwarded.protocol} ${hostPort}: ${reason}`, error);
  }
}

function connectTcp(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, noDelay: true });
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    const failed = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once("timeout", () => failed(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)));
    socket.once("error", failed);
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.removeAllListeners("timeout");
      socket.removeListener("error", failed);
      // Not read until the caller's WebSocket is there to take the bytes.
      socket.pause();
      resolve(socket);
    });
  });
}

function connectUdp(host: string, port: number): Promise<UdpSocket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIPv6(host) ? "udp6" : "udp4");
    socket.once("error", (error) => {
      socket.close();
      reject(error);
    });
    socket.connect(port, host, () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
  });
}
