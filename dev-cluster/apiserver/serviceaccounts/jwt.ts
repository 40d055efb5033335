import { sign, verify } from "node:crypto";
import { isJsonObject, type JsonObject } from "../json.js";
import type { SigningKey } from "./signing-key.js";

/** A compact JWS split into its parts; the signature is not checked yet. */
export interface ParsedJwt {
  header: JsonObject;
  payload: JsonObject;
  signingInput: string;
  signature: Buffer;
}

const ALGORITHM = "ES256";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function encodeJson(value: JsonObject): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function decodeJson(part: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Signs `payload` as a compact JWS with ES256 (`alg` and `kid` in the header, as kube-apiserver writes them). */
export function signJwt(payload: JsonObject, key: SigningKey): string {
  const signingInput = `${encodeJson({ alg: ALGORITHM, kid: key.keyId })}.${encodeJson(payload)}`;
  // JWS wants r||s (IEEE P1363), not the DER that node produces by default.
  const signature = sign("sha256", Buffer.from(signingInput), {
    key: key.privateKey,
    dsaEncoding: "ieee-p1363",
  });
  return `${signingInput}.${signature.toString("base64url")}`;
}

/**
 * Splits a compact JWS with JSON header and payload. Undefined for anything else (an opaque
 * token of another authenticator), without throwing.
 */
export function parseJwt(token: string): ParsedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return undefined;
  const [headerPart = "", payloadPart = "", signaturePart = ""] = parts;
  const header = decodeJson(headerPart);
  const payload = decodeJson(payloadPart);
  if (!header || !payload) return undefined;
  return {
    header,
    payload,
    signingInput: `${headerPart}.${payloadPart}`,
    signature: Buffer.from(signaturePart, "base64url"),
  };
}

/** Whether the JWS is ES256 and signed by `key` (no other algorithm, and never `none`, is accepted). */
export function hasValidSignature(jwt: ParsedJwt, key: SigningKey): boolean {
  if (jwt.header.alg !== ALGORITHM || jwt.signature.length !== 64) return false;
  return verify(
    "sha256",
    Buffer.from(jwt.signingInput),
    { key: key.publicKey, dsaEncoding: "ieee-p1363" },
    jwt.signature,
  );
}
