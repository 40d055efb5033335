// Test support: the certificates around virt-handler's console server, as virt-operator would issue
// them: a CA, the handler's serving certificate (for 127.0.0.1 and localhost), virt-api's client
// certificate, and a client certificate of someone else from the same CA.
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueClientCertificate,
  issueServerCertificate,
} from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import type { Secret } from "../../runtime/tls/secret-tls-source.js";
import type { TlsMaterial, TlsMaterialSource } from "../../runtime/tls/tls-material.js";
import { VIRT_API_COMMON_NAME } from "../console-server/client-identity.js";

export type { CertificateAndKey };

export interface ConsolePki {
  readonly ca: CertificateAndKey;
  readonly server: CertificateAndKey;
  readonly virtApi: CertificateAndKey;
  /** Same CA, common name "virt-controller": verified, but not virt-api. */
  readonly stranger: CertificateAndKey;
}

export async function issueConsolePki(caName = "kubevirt-ca-test"): Promise<ConsolePki> {
  const ca = await createCertificateAuthority(caName, 1);
  return {
    ca,
    server: await issueServerCertificate(ca, { hosts: ["localhost"], ips: ["127.0.0.1"] }, 1),
    virtApi: await issueClientCertificate(ca, VIRT_API_COMMON_NAME, [], 1),
    stranger: await issueClientCertificate(ca, "virt-controller", [], 1),
  };
}

/** The server's material: its certificate, and the CA that client certificates must come from. */
export function serverMaterial(pki: ConsolePki): TlsMaterial {
  return { certPem: pki.server.certPem, keyPem: pki.server.keyPem, caPem: pki.ca.certPem };
}

/** The Secret virt-operator writes for the handler's server (`kubevirt-virt-handler-server-certs`). */
export function serverSecret(pki: ConsolePki, namespace: string, name: string): Secret {
  const base64 = (text: string): string => Buffer.from(text).toString("base64");
  const material = serverMaterial(pki);
  return {
    metadata: { name, namespace },
    type: "kubernetes.io/tls",
    data: {
      "tls.crt": base64(material.certPem),
      "tls.key": base64(material.keyPem),
      "ca.crt": base64(material.caPem),
    },
  };
}

/** A TlsMaterialSource whose material the test sets. */
export class SettableTlsSource implements TlsMaterialSource {
  #current: TlsMaterial | undefined;
  readonly #listeners = new Set<(material: TlsMaterial) => void>();

  current(): TlsMaterial | undefined {
    return this.#current;
  }

  onChange(listener: (material: TlsMaterial) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  set(material: TlsMaterial): void {
    this.#current = material;
    for (const listener of [...this.#listeners]) listener(material);
  }
}
