/**
 * What the operator issues, and into which Secret (KubeVirt's names, runtime/tls/tls-material.ts):
 * one CA, and the certificates it signs. Every Secret's `ca.crt` is the CA bundle: virt-api
 * and virt-handler verify each other against it, the API server verifies virt-api against the
 * same bundle in the APIService's and the webhooks' caBundle, and a scraper verifies every
 * component's https://POD:8443/metrics against it.
 */
import { CERTIFICATE_SECRETS, VIRT_API_CLIENT_COMMON_NAME } from "../../runtime/tls/tls-material.js";
import type { CertificateRequest as X509Request } from "../../runtime/tls/x509.js";

/** What the operator asks its CA for: the DNS names always given (none for a client), as checks compare them. */
export interface CertificateRequest extends X509Request {
  readonly dnsNames: readonly string[];
}

/** A certificate the CA signs, and the Secret it lives in. */
export interface IssuedCertificate {
  readonly secretName: string;
  /** What the Secret is for, in its annotation and in messages. */
  readonly purpose: string;
  readonly request: CertificateRequest;
}

export const CA_SECRET = CERTIFICATE_SECRETS.ca;
export const CA_PURPOSE = "kubevirt-ca";

/** The CA's common name: KubeVirt's form, the issue time telling rotated CAs apart in a bundle. */
export function caCommonName(nowMs: number): string {
  return `kubevirt.io@${Math.floor(nowMs / 1000)}`;
}

/** The Service name virt-api's serving certificate must carry, in every form a client may dial. */
export function virtApiDnsNames(namespace: string): string[] {
  return [
    `virt-api.${namespace}.svc`,
    `virt-api.${namespace}.svc.cluster.local`,
    `virt-api.${namespace}`,
    "virt-api",
  ];
}

export function issuedCertificates(namespace: string): IssuedCertificate[] {
  const [serviceName = "virt-api"] = virtApiDnsNames(namespace);
  return [
    {
      // The API server checks it for virt-api.NAMESPACE.svc (aggregation and webhooks).
      secretName: CERTIFICATE_SECRETS.apiServer,
      purpose: "virt-api-server",
      request: { commonName: serviceName, usage: "serverAuth", dnsNames: virtApiDnsNames(namespace) },
    },
    {
      // virt-api dials virt-handler by pod IP and skips only the host name check: any name does.
      secretName: CERTIFICATE_SECRETS.handlerServer,
      purpose: "virt-handler-server",
      request: { commonName: "virt-handler", usage: "serverAuth", dnsNames: ["virt-handler"] },
    },
    {
      // virt-handler's console server admits this common name only.
      secretName: CERTIFICATE_SECRETS.handlerClient,
      purpose: "virt-api-client",
      request: { commonName: VIRT_API_CLIENT_COMMON_NAME, usage: "clientAuth", dnsNames: [] },
    },
    // The metrics servers of virt-controller and of the operator itself. Issued here, with the
    // others and before any strategy object is applied, rather than by the strategy: the
    // operator's own Deployment is not in it. A scraper dials pods by IP and checks the chain;
    // the names are KubeVirt's, for one that checks them too.
    metricsCertificate(CERTIFICATE_SECRETS.controllerServer, "virt-controller", namespace),
    metricsCertificate(CERTIFICATE_SECRETS.operatorServer, "virt-operator", namespace),
  ];
}

function metricsCertificate(secretName: string, component: string, namespace: string): IssuedCertificate {
  return {
    secretName,
    purpose: `${component}-server`,
    request: {
      commonName: component,
      usage: "serverAuth",
      dnsNames: [component, `${component}.${namespace}.pod.cluster.local`],
    },
  };
}
