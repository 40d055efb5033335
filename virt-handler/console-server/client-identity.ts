// Who may connect: the TLS layer already requires a client certificate issued by the CA in the
// material's ca.crt; on top of that, the certificate must be virt-api's. Other components get
// certificates from the same CA (KubeVirt's design), so the CA alone does not say who calls.
import type { TLSSocket } from "node:tls";
import { VIRT_API_CLIENT_COMMON_NAME } from "../../runtime/tls/tls-material.js";
import { HttpError } from "./http-status.js";

/** The subject common name of virt-api's client certificate towards virt-handler (virt-operator issues it). */
export const VIRT_API_COMMON_NAME = VIRT_API_CLIENT_COMMON_NAME;

/** Throws a 403 HttpError unless the peer presented a verified certificate of virt-api. */
export function requireVirtApi(socket: TLSSocket): void {
  if (!socket.authorized) {
    throw new HttpError(403, "Forbidden", `client certificate not verified: ${socket.authorizationError}`);
  }
  const subject = socket.getPeerCertificate().subject as Record<string, string | string[]> | undefined;
  const commonName = subject?.CN;
  const names = Array.isArray(commonName) ? commonName : commonName === undefined ? [] : [commonName];
  if (names.length !== 1 || names[0] !== VIRT_API_COMMON_NAME) {
    throw new HttpError(
      403,
      "Forbidden",
      `only ${VIRT_API_COMMON_NAME} may connect (the client certificate names ${names.join(", ") || "nobody"})`,
    );
  }
}
