/**
 * The request-header authentication settings kube-apiserver publishes for aggregated API
 * servers in ConfigMap kube-system/extension-apiserver-authentication: which CA signs the
 * front-proxy's client certificate, which common names it may have, and which headers carry the
 * user it authenticated.
 */
import { X509Certificate } from "node:crypto";

export const AUTHENTICATION_CONFIGMAP = {
  namespace: "kube-system",
  name: "extension-apiserver-authentication",
};

/** The ConfigMap's keys (k8s.io/apiserver's requestheader options). */
export const REQUEST_HEADER_KEYS = {
  clientCa: "requestheader-client-ca-file",
  allowedNames: "requestheader-allowed-names",
  usernameHeaders: "requestheader-username-headers",
  uidHeaders: "requestheader-uid-headers",
  groupHeaders: "requestheader-group-headers",
  extraHeadersPrefix: "requestheader-extra-headers-prefix",
} as const;

export interface RequestHeaderConfig {
  /** The CA bundle as published (PEM); what the TLS layer asks client certificates to chain to. */
  readonly caPem: string;
  readonly caCertificates: readonly X509Certificate[];
  /** Common names the front-proxy certificate may have; empty allows any the CA signed. */
  readonly allowedNames: readonly string[];
  /** Header names, lower-case (as Node hands headers over). */
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

/**
 * Reads the ConfigMap's data. Undefined when it does not configure request-header
 * authentication (no CA, or no username header): then no caller is trusted. Throws with the
 * reason when a value is malformed.
 */
export function parseRequestHeaderConfig(
  data: Readonly<Record<string, string>> | undefined,
): RequestHeaderConfig | undefined {
  const caPem = data?.[REQUEST_HEADER_KEYS.clientCa]?.trim();
  if (!data || !caPem) return undefined;
  const usernameHeaders = headerNames(data, REQUEST_HEADER_KEYS.usernameHeaders);
  if (usernameHeaders.length === 0) return undefined;
  return {
    caPem,
    caCertificates: parseBundle(caPem),
    allowedNames: stringList(data, REQUEST_HEADER_KEYS.allowedNames),
    usernameHeaders,
    uidHeaders: headerNames(data, REQUEST_HEADER_KEYS.uidHeaders),
    groupHeaders: headerNames(data, REQUEST_HEADER_KEYS.groupHeaders),
    extraHeaderPrefixes: headerNames(data, REQUEST_HEADER_KEYS.extraHeadersPrefix),
  };
}

/** Every certificate of a PEM bundle (Node's X509Certificate reads only the first of a bundle). */
export function parseBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${REQUEST_HEADER_KEYS.clientCa} holds no PEM certificate`);
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new Error(`certificate ${index + 1} of ${REQUEST_HEADER_KEYS.clientCa} does not parse`, {
        cause: error,
      });
    }
  });
}

/** A key holding a JSON list of strings (kube-apiserver writes them so); absent is empty. */
function stringList(data: Readonly<Record<string, string>>, key: string): string[] {
  const text = data[key];
  if (text === undefined || text.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${key} is not a JSON list: ${text}`, { cause: error });
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new Error(`${key} is not a JSON list of strings: ${text}`);
  }
  return parsed.filter((item) => item !== "");
}

function headerNames(data: Readonly<Record<string, string>>, key: string): string[] {
  return stringList(data, key).map((name) => name.trim().toLowerCase());
}
