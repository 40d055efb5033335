/**
 * The certificates a virt-api test needs, issued with the dev cluster's X.509 issuer
 * (@peculiar/x509): the KubeVirt CA and what it signs (virt-api's serving certificate, virt-api's
 * client certificate towards virt-handler, virt-handler's server certificate), a front-proxy CA
 * with the aggregator's client certificate, and the impostors the tests expect refused.
 */
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueClientCertificate,
  issueServerCertificate,
} from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import { VIRT_API_CLIENT_COMMON_NAME } from "../../runtime/tls/tls-material.js";

export type { CertificateAndKey };

export const FRONT_PROXY_NAME = "front-proxy-client";

export interface TestCertificates {
  kubevirtCa: CertificateAndKey;
  /** virt-api's serving certificate (localhost, 127.0.0.1). */
  virtApiServer: CertificateAndKey;
  /** virt-api's client certificate towards virt-handler (CN virt-api). */
  virtApiClient: CertificateAndKey;
  /** The fake virt-handler's serving certificate: it names a node, not the address dialled. */
  handlerServer: CertificateAndKey;
  frontProxyCa: CertificateAndKey;
  /** What the API server's aggregation layer presents (CN front-proxy-client). */
  frontProxyClient: CertificateAndKey;
  /** Signed by the front-proxy CA, but with a common name that is not allowed. */
  wrongNameClient: CertificateAndKey;
  /** The right common name, signed by a CA nobody published. */
  rogueClient: CertificateAndKey;
}

export async function issueTestCertificates(): Promise<TestCertificates> {
  const kubevirtCa = await createCertificateAuthority("kubevirt-ca", 1);
  const frontProxyCa = await createCertificateAuthority("front-proxy-ca", 1);
  const rogueCa = await createCertificateAuthority("front-proxy-ca", 1);
  return {
    kubevirtCa,
    virtApiServer: await issueServerCertificate(
      kubevirtCa,
      { hosts: ["localhost", "virt-api.kubevirt.svc"], ips: ["127.0.0.1"] },
      1,
    ),
    virtApiClient: await issueClientCertificate(kubevirtCa, VIRT_API_CLIENT_COMMON_NAME, [], 1),
    handlerServer: await issueServerCertificate(kubevirtCa, { hosts: ["virt-handler.node-a"], ips: [] }, 1),
    frontProxyCa,
    frontProxyClient: await issueClientCertificate(frontProxyCa, FRONT_PROXY_NAME, [], 1),
    wrongNameClient: await issueClientCertificate(frontProxyCa, "intruder", [], 1),
    rogueClient: await issueClientCertificate(rogueCa, FRONT_PROXY_NAME, [], 1),
  };
}
