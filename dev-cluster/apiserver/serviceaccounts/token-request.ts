import { randomUUID } from "node:crypto";
import { wireTime } from "../../../runtime/clock/wire-time.js";
import { badRequest, invalid, type StatusCause } from "../api-error.js";
import { invalidField } from "../builtin/field-errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { stringField, uidOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { resolveBoundObject } from "./bound-objects.js";
import { signJwt } from "./jwt.js";
import type { SigningKey } from "./signing-key.js";
import { claimsToPayload, type ServiceAccountClaims } from "./token-claims.js";

export interface TokenIssuerOptions {
  service: ObjectService;
  key: SigningKey;
  issuer: string;
  /** Given to tokens that ask for no audience. */
  audiences: readonly string[];
}

const GROUP = "authentication.k8s.io";
const API_VERSION = `${GROUP}/v1`;
const KIND = "TokenRequest";
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

function checkTypeMeta(body: JsonObject): void {
  if (body.kind !== undefined && body.kind !== "" && body.kind !== KIND) {
    throw badRequest(
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${KIND})`,
    );
  }
  if (body.apiVersion !== undefined && body.apiVersion !== "" && body.apiVersion !== API_VERSION) {
    throw badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${API_VERSION})`,
    );
  }
}

/** metadata.name and .namespace may be left out, but when sent must be the URL's. */
function checkMetadata(metadata: JsonObject, namespace: string, name: string): void {
  const sent: [string, string, string][] = [
    ["name", name, "must match the service account name if specified"],
    ["namespace", namespace, "must match the service account namespace if specified"],
  ];
  for (const [field, expected, why] of sent) {
    const value = stringField(metadata, field) ?? "";
    if (value !== "" && value !== expected) {
      throw invalid(KIND, GROUP, name, [invalidField(`metadata.${field}`, value, why)]);
    }
  }
}

function readAudiences(spec: JsonObject): string[] {
  const audiences = spec.audiences;
  if (audiences === undefined || audiences === null) return [];
  if (!Array.isArray(audiences) || !audiences.every((a) => typeof a === "string")) {
    throw badRequest("TokenRequest.spec.audiences must be a list of strings");
  }
  return audiences as string[];
}

/** SetDefaults_TokenRequestSpec and ValidateTokenRequest: 3600 s by default, 10 minutes to 2^32 s. */
function readExpiration(spec: JsonObject): number {
  const value = spec.expirationSeconds;
  if (value === undefined || value === null) return DEFAULT_EXPIRATION_SECONDS;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw badRequest("TokenRequest.spec.expirationSeconds must be an integer");
  }
  const causes: StatusCause[] = [];
  if (value < MIN_EXPIRATION_SECONDS) {
    causes.push(
      invalidField("spec.expirationSeconds", value, "may not specify a duration less than 10 minutes"),
    );
  } else if (value > MAX_EXPIRATION_SECONDS) {
    causes.push(
      invalidField("spec.expirationSeconds", value, "may not specify a duration larger than 2^32 seconds"),
    );
  }
  if (causes.length > 0) throw invalid(KIND, GROUP, "", causes);
  return value;
}

function objectField(object: JsonObject, field: string): JsonObject {
  const value: JsonValue | undefined = object[field];
  return isJsonObject(value) ? value : {};
}

/**
 * POST serviceaccounts/<name>/token: issues a bound service-account token, as kube's TokenREST
 * does, and answers the TokenRequest with `status.token` and `status.expirationTimestamp`.
 */
export function createTokenRequest(
  options: TokenIssuerOptions,
  namespace: string,
  serviceAccountName: string,
  body: JsonValue,
): JsonObject {
  if (!isJsonObject(body)) throw badRequest(`the body of the request must be a JSON object of kind ${KIND}`);
  checkTypeMeta(body);
  const metadata = objectField(body, "metadata");
  checkMetadata(metadata, namespace, serviceAccountName);
  const { service } = options;
  const accountType = service.registry.find("", "v1", "serviceaccounts");
  if (!accountType) throw new Error("the serviceaccounts resource is not registered");
  const account = service.get(accountType, namespace, serviceAccountName);
  const spec = objectField(body, "spec");
  const sentAudiences = readAudiences(spec);
  const audiences = sentAudiences.length > 0 ? sentAudiences : [...options.audiences];
  const expirationSeconds = readExpiration(spec);
  const boundRef = isJsonObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  const bound = boundRef ? resolveBoundObject(service, namespace, serviceAccountName, boundRef) : {};
  const now = service.now();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const claims: ServiceAccountClaims = {
    issuer: options.issuer,
    audiences,
    issuedAt,
    notBefore: issuedAt,
    expiresAt: issuedAt + expirationSeconds,
    id: randomUUID(),
    namespace,
    serviceAccount: { name: serviceAccountName, uid: uidOf(account) },
    ...bound,
  };
  const token = signJwt(claimsToPayload(claims), options.key);
  return {
    kind: KIND,
    apiVersion: API_VERSION,
    metadata: {
      ...metadata,
      name: serviceAccountName,
      namespace,
      creationTimestamp: wireTime(now.getTime()),
    },
    spec: { ...spec, audiences, expirationSeconds },
    status: { token, expirationTimestamp: wireTime(claims.expiresAt * 1000) },
  };
}
