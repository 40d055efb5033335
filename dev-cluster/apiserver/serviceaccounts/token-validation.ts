import {
  type Authenticator,
  bearerToken,
  type UserInfo,
  withAuthenticatedGroup,
} from "../auth/authenticator.js";
import type { JsonObject } from "../json.js";
import { meta, stringField, uidOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { hasValidSignature, parseJwt } from "./jwt.js";
import type { SigningKey } from "./signing-key.js";
import {
  type ObjectRef,
  payloadToClaims,
  type ServiceAccountClaims,
  serviceAccountUsername,
} from "./token-claims.js";

export interface TokenValidationOptions {
  service: ObjectService;
  key: SigningKey;
  issuer: string;
  /** The API server's audiences: a token must name at least one. */
  audiences: readonly string[];
}

/** The user a token authenticates, why it does not, or undefined when it is not one of ours. */
export type TokenValidation = { user: UserInfo } | { error: string } | undefined;

/** go-jose's DefaultLeeway, which kube's validator uses for exp, nbf, iat and deletions. */
const LEEWAY_SECONDS = 60;

function lookUp(
  service: ObjectService,
  plural: string,
  namespace: string,
  name: string,
): JsonObject | undefined {
  const type = service.registry.find("", "v1", plural);
  return type ? service.find(type, namespace, name) : undefined;
}

function deletedBefore(object: JsonObject, limit: number): boolean {
  const deletion = stringField(meta(object), "deletionTimestamp");
  return deletion !== undefined && Date.parse(deletion) / 1000 < limit;
}

function timeError(claims: ServiceAccountClaims, now: number): string | undefined {
  if (now > claims.expiresAt + LEEWAY_SECONDS) return "service account token has expired";
  if (now + LEEWAY_SECONDS < claims.notBefore) return "service account token is not valid yet";
  if (now + LEEWAY_SECONDS < claims.issuedAt) return "service account token is issued in the future";
  return undefined;
}

/** kube's bound-object checks: the object still exists, with the same uid, and was not deleted a while ago. */
function boundObjectError(
  options: TokenValidationOptions,
  claims: ServiceAccountClaims,
  limit: number,
): string | undefined {
  const { service } = options;
  const bound: [string, string, ObjectRef | undefined][] = [
    ["secret", "secrets", claims.secret],
    ["pod", "pods", claims.pod],
    // A pod-bound token's node is informational; a node-bound token lives as long as the node.
    ["node", "nodes", claims.pod ? undefined : claims.node],
  ];
  for (const [what, plural, ref] of bound) {
    if (!ref) continue;
    const object = lookUp(service, plural, plural === "nodes" ? "" : claims.namespace, ref.name);
    if (!object) return "service account token has been invalidated";
    if (uidOf(object) !== ref.uid) {
      return `${what} UID (${uidOf(object)}) does not match service account ${what} ref claim (${ref.uid})`;
    }
    if (deletedBefore(object, limit)) return "service account token has been invalidated";
  }
  return undefined;
}

function userOf(claims: ServiceAccountClaims): UserInfo {
  const { namespace, serviceAccount } = claims;
  return withAuthenticatedGroup({
    username: serviceAccountUsername(namespace, serviceAccount.name),
    uid: serviceAccount.uid,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`],
  });
}

/**
 * Validates a bound service-account token as kube-apiserver does: a JWT of this issuer, signed
 * by the key, within its lifetime, for one of the API server's audiences, whose service account
 * (and bound pod, secret or node) still exists with the uid the token names.
 */
export function validateServiceAccountToken(token: string, options: TokenValidationOptions): TokenValidation {
  const jwt = parseJwt(token);
  if (!jwt || jwt.payload.iss !== options.issuer) return undefined;
  if (!hasValidSignature(jwt, options.key)) return { error: "invalid signature" };
  const claims = payloadToClaims(jwt.payload);
  if (!claims) return { error: "service account token claims are malformed" };
  const now = options.service.now().getTime() / 1000;
  const expired = timeError(claims, now);
  if (expired) return { error: expired };
  if (!claims.audiences.some((audience) => options.audiences.includes(audience))) {
    return {
      error: `token audiences ${JSON.stringify(claims.audiences)} is invalid for the target audiences ${JSON.stringify(options.audiences)}`,
    };
  }
  const { namespace, serviceAccount } = claims;
  const account = lookUp(options.service, "serviceaccounts", namespace, serviceAccount.name);
  if (!account) return { error: `serviceaccounts "${serviceAccount.name}" not found` };
  if (uidOf(account) !== serviceAccount.uid) {
    return { error: `service account UID (${uidOf(account)}) does not match claim (${serviceAccount.uid})` };
  }
  const limit = now - LEEWAY_SECONDS;
  if (deletedBefore(account, limit))
    return { error: `service account ${namespace}/${serviceAccount.name} has been deleted` };
  const boundError = boundObjectError(options, claims, limit);
  return boundError ? { error: boundError } : { user: userOf(claims) };
}

/** Authenticates `Authorization: Bearer <service-account JWT>`; chain it after the static tokens. */
export function serviceAccountTokenAuthenticator(options: TokenValidationOptions): Authenticator {
  return {
    authenticate(authorizationHeader) {
      const token = bearerToken(authorizationHeader);
      if (token === undefined) return undefined;
      const outcome = validateServiceAccountToken(token, options);
      return outcome && "user" in outcome ? outcome.user : undefined;
    },
  };
}
