/**
 * Request-header authentication as an aggregated API server does it (k8s.io/apiserver's
 * requestheader authenticator): the user headers are trusted only on a connection whose client
 * certificate verifies against the published front-proxy CA and, when names are listed, has an
 * allowed common name. Anyone else could set the headers themselves.
 */
import { X509Certificate } from "node:crypto";
import type { DetailedPeerCertificate, TLSSocket } from "node:tls";
import { unauthorized } from "../status/status-error.js";
import type { Caller } from "./caller.js";
import type { RequestHeaderConfig } from "./request-header-config.js";

/** Request headers as Node keeps every occurrence: lower-case names, one entry per header line. */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

/**
 * Throws a 401 StatusError unless the connection comes from the front-proxy: a client
 * certificate that the TLS handshake verified, chaining to the CA published now (the handshake
 * may predate a rotation), with an allowed common name.
 */
export function verifyFrontProxy(config: RequestHeaderConfig | undefined, socket: TLSSocket): void {
  if (!config) throw unauthorized("Unauthorized: no request-header client CA is published");
  if (!socket.authorized) {
    throw unauthorized(
      `Unauthorized: no verified front-proxy client certificate (${String(socket.authorizationError ?? "none presented")})`,
    );
  }
  const peer = socket.getPeerCertificate(true);
  if (!peer.raw) throw unauthorized("Unauthorized: no client certificate");
  if (!anchoredIn(peer, config.caCertificates)) {
    throw unauthorized(
      "Unauthorized: the client certificate does not chain to the current request-header CA",
    );
  }
  if (config.allowedNames.length === 0) return;
  const commonName = commonNameOf(peer);
  if (commonName === undefined || !config.allowedNames.includes(commonName)) {
    throw unauthorized(
      `Unauthorized: the client certificate's common name ${JSON.stringify(commonName ?? "")} is not one of the allowed names`,
    );
  }
}

/** The caller the front-proxy vouches for; throws a 401 when the connection or the headers do not say. */
export function authenticateCaller(
  config: RequestHeaderConfig | undefined,
  socket: TLSSocket,
  headers: DistinctHeaders,
): Caller {
  verifyFrontProxy(config, socket);
  const settings = config as RequestHeaderConfig;
  const username = firstValue(headers, settings.usernameHeaders);
  if (!username) throw unauthorized("Unauthorized: the request names no user");
  const uid = firstValue(headers, settings.uidHeaders);
  return {
    username,
    ...(uid ? { uid } : {}),
    groups: settings.groupHeaders.flatMap((name) => headers[name] ?? []),
    extra: extraOf(headers, settings.extraHeaderPrefixes),
  };
}

function firstValue(headers: DistinctHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name]?.[0];
    if (value) return value;
  }
  return undefined;
}

function extraOf(headers: DistinctHeaders, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) {
    const prefix = prefixes.find((candidate) => name.startsWith(candidate));
    if (prefix === undefined || values === undefined) continue;
    const key = unescapeExtraKey(name.slice(prefix.length));
    extra[key] = [...(extra[key] ?? []), ...values];
  }
  return extra;
}

/** Extra keys travel percent-encoded (so `/` and upper case survive HTTP header rules). */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Whether some certificate of the presented chain is, or is signed by, a certificate of `bundle`. */
function anchoredIn(peer: DetailedPeerCertificate, bundle: readonly X509Certificate[]): boolean {
  const seen = new Set<string>();
  let current: DetailedPeerCertificate | undefined = peer;
  while (current?.raw && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256);
    const certificate = new X509Certificate(current.raw);
    for (const ca of bundle) {
      if (ca.fingerprint256 === certificate.fingerprint256) return true;
      if (certificate.checkIssued(ca) && certificate.verify(ca.publicKey)) return true;
    }
    current = current.issuerCertificate;
  }
  return false;
}

function commonNameOf(peer: DetailedPeerCertificate): string | undefined {
  const commonName = (peer.subject as unknown as Record<string, string | string[] | undefined>).CN;
  return Array.isArray(commonName) ? commonName[0] : commonName;
}
