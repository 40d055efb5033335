/**
 * The Secrets certificates live in: `kubernetes.io/tls` with `tls.crt`, `tls.key` and `ca.crt`
 * (runtime/tls reads them so), the managed-by label (the operator's caches select it, uninstall
 * removes what carries it) and an annotation saying what the Secret holds. They are not part of
 * the rendered strategy: their content is generated, never rendered.
 */
import type { Frozen } from "../../runtime/index.js";
import { jsonEqual } from "../../runtime/index.js";
import { materialOf, type Secret, TLS_SECRET_KEYS } from "../../runtime/tls/secret-tls-source.js";
import type { TlsMaterial } from "../../runtime/tls/tls-material.js";
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from "../strategy/install-strategy.js";
import {
  APP_COMPONENT_LABEL,
  APP_COMPONENT_VALUE,
  PART_OF_LABEL,
  PART_OF_VALUE,
} from "../strategy/object-metadata.js";

/** What an issued Secret holds (its purpose, e.g. `virt-api-server`): marks it as the operator's. */
export const CERTIFICATE_ANNOTATION = "kubevirt-ts.io/certificate";
const TLS_SECRET_TYPE = "kubernetes.io/tls";

export function certificateSecret(
  namespace: string,
  name: string,
  purpose: string,
  material: TlsMaterial,
): Secret {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name,
      namespace,
      labels: {
        [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
        [APP_COMPONENT_LABEL]: APP_COMPONENT_VALUE,
        [PART_OF_LABEL]: PART_OF_VALUE,
      },
      annotations: { [CERTIFICATE_ANNOTATION]: purpose },
    },
    type: TLS_SECRET_TYPE,
    data: {
      [TLS_SECRET_KEYS.cert]: base64(material.certPem),
      [TLS_SECRET_KEYS.key]: base64(material.keyPem),
      [TLS_SECRET_KEYS.ca]: base64(material.caPem),
    },
  };
}

/** The Secret's material, or why there is none to use. */
export function storedMaterial(
  secret: Frozen<Secret> | undefined,
): { material: TlsMaterial } | { problem: string } {
  if (!secret) return { problem: "missing" };
  try {
    return { material: materialOf(secret) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether `live` lacks anything of `desired`: its type, a label, the annotation, or the data. */
export function differsFrom(live: Frozen<Secret>, desired: Secret): boolean {
  const labels = desired.metadata?.labels ?? {};
  const annotations = desired.metadata?.annotations ?? {};
  return (
    live.type !== desired.type ||
    Object.entries(labels).some(([key, value]) => live.metadata?.labels?.[key] !== value) ||
    Object.entries(annotations).some(([key, value]) => live.metadata?.annotations?.[key] !== value) ||
    !jsonEqual({ ...live.data }, desired.data)
  );
}

/** A Secret the operator issued (as opposed to one the strategy rendered, or anyone else's). */
export function isIssuedCertificateSecret(object: {
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
}): boolean {
  return (
    object.metadata?.labels?.[MANAGED_BY_LABEL] === MANAGED_BY_VALUE &&
    object.metadata.annotations?.[CERTIFICATE_ANNOTATION] !== undefined
  );
}

function base64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}
