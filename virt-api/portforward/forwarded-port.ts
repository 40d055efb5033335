/**
 * The `{port}` and `{protocol}` of `.../portforward/{port}[/{protocol}]`, judged with KubeVirt's
 * words where it has them: an empty port is "port must not be empty"; the protocol is tcp unless
 * udp is named.
 */
import { badRequest } from "../status/status-error.js";

export type ForwardProtocol = "tcp" | "udp";

export interface ForwardedPort {
  readonly port: number;
  readonly protocol: ForwardProtocol;
}

export function forwardedPortOf(forward: { port: string; protocol: string } | undefined): ForwardedPort {
  const port = forward?.port ?? "";
  if (port === "") throw badRequest("port must not be empty");
  const number = /^[0-9]{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (!(number >= 1 && number <= 65535)) {
    throw badRequest(`port must be a number from 1 to 65535, not "${port}"`);
  }
  const protocol = (forward?.protocol ?? "") === "" ? "tcp" : forward?.protocol;
  if (protocol !== "tcp" && protocol !== "udp") {
    throw badRequest(`protocol must be tcp or udp, not "${protocol}"`);
  }
  return { port: number, protocol };
}
