import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import type { UserInfo } from "../auth/authenticator.js";
import {
  REMOTE_EXTRA_HEADER_PREFIX,
  REMOTE_GROUP_HEADER,
  REMOTE_USER_HEADER,
} from "./authentication-config-map.js";

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus the old proxy ones. */
const HOP_BY_HOP = new Set([
  "connection",
  // This server has already answered any 100-continue; the backend gets the body straight away.
  "expect",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Headers the client sent that must not reach the backend: its credentials, and identity claims. */
function isIdentityHeader(lowerName: string): boolean {
  return (
    lowerName === "authorization" ||
    lowerName.startsWith("impersonate-") ||
    lowerName === REMOTE_USER_HEADER.toLowerCase() ||
    lowerName === REMOTE_GROUP_HEADER.toLowerCase() ||
    lowerName === "x-remote-uid" ||
    lowerName.startsWith(REMOTE_EXTRA_HEADER_PREFIX.toLowerCase())
  );
}

/** The names a Connection header lists are hop-by-hop too. */
function connectionTokens(rawHeaders: readonly string[]): Set<string> {
  const tokens = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== "connection") continue;
    for (const token of (rawHeaders[i + 1] ?? "").split(",")) tokens.add(token.trim().toLowerCase());
  }
  return tokens;
}

/** The parts of a received message the header rewriting reads. */
export interface ReceivedMessage {
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

function append(headers: OutgoingHttpHeaders, name: string, value: string): void {
  const existing = headers[name];
  if (existing === undefined) headers[name] = value;
  else headers[name] = [...(Array.isArray(existing) ? existing : [String(existing)]), value];
}

/**
 * The headers of a request proxied to an aggregated API server, as kube-aggregator sends them:
 * the client's headers without its credentials and without any X-Remote-* it made up, then the
 * authenticated user as `X-Remote-User`, one `X-Remote-Group` per group and
 * `X-Remote-Extra-<key>` per extra value (transport.SetAuthProxyHeaders). An upgrade keeps its
 * Connection and Upgrade headers.
 */
export function backendRequestHeaders(
  request: ReceivedMessage,
  user: UserInfo,
  options: { host: string; upgrade: boolean },
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const listed = connectionTokens(request.rawHeaders);
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] ?? "";
    const value = request.rawHeaders[i + 1] ?? "";
    const lower = name.toLowerCase();
    const keptForUpgrade = options.upgrade && (lower === "connection" || lower === "upgrade");
    if (lower === "host" || isIdentityHeader(lower)) continue;
    if ((HOP_BY_HOP.has(lower) || listed.has(lower)) && !keptForUpgrade) continue;
    append(headers, name, value);
  }
  headers.Host = options.host;
  headers[REMOTE_USER_HEADER] = user.username;
  if (user.groups.length > 0) headers[REMOTE_GROUP_HEADER] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    headers[`${REMOTE_EXTRA_HEADER_PREFIX}${encodeURIComponent(key)}`] = [...values];
  }
  const forwardedFor = request.socket.remoteAddress;
  if (forwardedFor) {
    const previous = request.headers["x-forwarded-for"];
    headers["X-Forwarded-For"] = previous ? `${previous}, ${forwardedFor}` : forwardedFor;
    delete headers["x-forwarded-for"];
  }
  return headers;
}

/** The backend's response headers as the client gets them: without the hop-by-hop ones. */
export function clientResponseHeaders(
  response: Pick<ReceivedMessage, "rawHeaders">,
  upgrade = false,
): string[] {
  const listed = connectionTokens(response.rawHeaders);
  const kept: string[] = [];
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    const name = response.rawHeaders[i] ?? "";
    const lower = name.toLowerCase();
    const keptForUpgrade = upgrade && (lower === "connection" || lower === "upgrade");
    if ((HOP_BY_HOP.has(lower) || listed.has(lower)) && !keptForUpgrade) continue;
    kept.push(name, response.rawHeaders[i + 1] ?? "");
  }
  return kept;
}
