import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/** kube-apiserver's `--service-account-issuer` as kubeadm and kind set it. */
export const DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";

export interface ObjectRef {
  name: string;
  uid: string;
}

/** Who a token speaks for: a service account, and the object its life is bound to, if any. */
export interface TokenSubject {
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  /** The node of a bound pod (informational), or the node a token is bound to. */
  node?: ObjectRef;
}

/** The claims of a bound service-account token (times in seconds since the epoch). */
export interface ServiceAccountClaims extends TokenSubject {
  issuer: string;
  audiences: string[];
  issuedAt: number;
  notBefore: number;
  expiresAt: number;
  /** `jti`: a UUID per token, kube's credential id. */
  id: string;
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function refJson(ref: ObjectRef): JsonObject {
  return ref.uid === "" ? { name: ref.name } : { name: ref.name, uid: ref.uid };
}

/**
 * The JWT payload as kube-apiserver writes it: registered claims and the private
 * `kubernetes.io` claim, keys in sorted order (go-jose marshals the claims through a map).
 */
export function claimsToPayload(claims: ServiceAccountClaims): JsonObject {
  const kubernetes: JsonObject = { namespace: claims.namespace };
  if (claims.node) kubernetes.node = refJson(claims.node);
  if (claims.pod) kubernetes.pod = refJson(claims.pod);
  if (claims.secret) kubernetes.secret = refJson(claims.secret);
  kubernetes.serviceaccount = refJson(claims.serviceAccount);
  return {
    aud: [...claims.audiences],
    exp: claims.expiresAt,
    iat: claims.issuedAt,
    iss: claims.issuer,
    jti: claims.id,
    "kubernetes.io": kubernetes,
    nbf: claims.notBefore,
    sub: serviceAccountUsername(claims.namespace, claims.serviceAccount.name),
  };
}

function readRef(value: JsonValue | undefined): ObjectRef | undefined {
  if (!isJsonObject(value) || typeof value.name !== "string" || value.name === "") return undefined;
  return { name: value.name, uid: typeof value.uid === "string" ? value.uid : "" };
}

function readAudiences(value: JsonValue | undefined): string[] | undefined {
  // RFC 7519 allows a single string as well as an array.
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return undefined;
}

function readTime(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Reads the claims of a payload; undefined when a claim kube requires is missing or malformed. */
export function payloadToClaims(payload: JsonObject): ServiceAccountClaims | undefined {
  const kubernetes = payload["kubernetes.io"];
  if (!isJsonObject(kubernetes) || typeof kubernetes.namespace !== "string") return undefined;
  const serviceAccount = readRef(kubernetes.serviceaccount);
  const audiences = readAudiences(payload.aud);
  const expiresAt = readTime(payload.exp);
  if (!serviceAccount || !audiences || expiresAt === undefined || typeof payload.iss !== "string") {
    return undefined;
  }
  if (payload.sub !== serviceAccountUsername(kubernetes.namespace, serviceAccount.name)) return undefined;
  const claims: ServiceAccountClaims = {
    issuer: payload.iss,
    audiences,
    issuedAt: readTime(payload.iat) ?? 0,
    notBefore: readTime(payload.nbf) ?? 0,
    expiresAt,
    id: typeof payload.jti === "string" ? payload.jti : "",
    namespace: kubernetes.namespace,
    serviceAccount,
  };
  const pod = readRef(kubernetes.pod);
  const secret = readRef(kubernetes.secret);
  const node = readRef(kubernetes.node);
  if (pod) claims.pod = pod;
  if (secret) claims.secret = secret;
  if (node) claims.node = node;
  return claims;
}
