// Test support: a serving certificate for this machine's loopback, signed by a CA of its own, and
// the kubernetes.io/tls Secret virt-operator would keep it in, so a test can make a component
// serve (and rotate) its HTTPS endpoints without an operator.
import type { KubeClient } from "../../runtime/client/kube-client.js";
import { isNotFound } from "../../runtime/index.js";
import { type Secret, secretKind, TLS_SECRET_KEYS } from "../../runtime/tls/secret-tls-source.js";
import type { TlsMaterial } from "../../runtime/tls/tls-material.js";
import { createCertificateAuthority, issueCertificate } from "../../runtime/tls/x509.js";

const HOUR_MS = 3_600_000;

/** A CA and, signed by it, a server certificate for 127.0.0.1 and localhost (one day). */
export async function issueLoopbackServingCertificate(caName = "test-serving-ca"): Promise<TlsMaterial> {
  const now = Date.now();
  const validity = { notBefore: now - HOUR_MS, notAfter: now + 24 * HOUR_MS };
  const ca = await createCertificateAuthority(caName, validity);
  const leaf = await issueCertificate(
    ca,
    { commonName: "localhost", usage: "serverAuth", dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] },
    validity,
  );
  return { certPem: leaf.certPem, keyPem: leaf.keyPem, caPem: ca.certPem };
}

export function servingSecret(namespace: string, name: string, material: TlsMaterial): Secret {
  const base64 = (text: string): string => Buffer.from(text).toString("base64");
  return {
    metadata: { name, namespace },
    type: "kubernetes.io/tls",
    data: {
      [TLS_SECRET_KEYS.cert]: base64(material.certPem),
      [TLS_SECRET_KEYS.key]: base64(material.keyPem),
      [TLS_SECRET_KEYS.ca]: base64(material.caPem),
    },
  };
}

/** Creates the Secret, or replaces its data when it exists (a rotation). */
export async function writeServingSecret(
  client: KubeClient,
  namespace: string,
  name: string,
  material: TlsMaterial,
): Promise<void> {
  const secrets = client.resource(secretKind);
  const desired = servingSecret(namespace, name, material);
  try {
    const live = await secrets.get({ namespace, name });
    await secrets.update({ ...live, type: desired.type, data: desired.data });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await secrets.create(desired);
  }
}
