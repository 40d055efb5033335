/**
 * The cluster's certificates and keys, made once per data directory and reused: a cluster CA
 * (API server and kubelet serving certificates, every client certificate), a front-proxy CA for
 * the aggregation layer (virt-api's subresources arrive through it), and the service-account
 * signing key. Identities are the ones kubeadm gives: the kubelet is `system:node:NAME` in
 * `system:nodes` (so the Node authorizer and NodeRestriction apply to it), kube-proxy
 * `system:kube-proxy`, the controller-manager and scheduler their `system:kube-*` users.
 */
import { generateKeyPair } from "node:crypto";
import { access, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { writeSecretFile } from "../dev-cluster/apiserver/tls/secret-file.js";
import {
  type CertificateAndKey,
  type CertificateRequest,
  createCertificateAuthority,
  issueCertificate,
} from "../runtime/tls/x509.js";
import { KUBERNETES_SERVICE_IP, NODE_IP, NODE_NAME } from "./layout.js";

const generateKeyPairAsync = promisify(generateKeyPair);
const TEN_YEARS_MS = 10 * 365 * 24 * 3_600_000;

/** The client identities that get a certificate (and a kubeconfig). */
export const CLIENTS = {
  admin: { commonName: "kubernetes-admin", organizations: ["system:masters"] },
  "kube-controller-manager": { commonName: "system:kube-controller-manager" },
  "kube-scheduler": { commonName: "system:kube-scheduler" },
  kubelet: { commonName: `system:node:${NODE_NAME}`, organizations: ["system:nodes"] },
  "kube-proxy": { commonName: "system:kube-proxy" },
  // kube-apiserver's own identity towards kubelets (logs, exec, port-forward).
  "apiserver-kubelet-client": {
    commonName: "kube-apiserver-kubelet-client",
    organizations: ["system:masters"],
  },
} as const;
export type ClientName = keyof typeof CLIENTS;

export interface ClusterPki {
  readonly dir: string;
  readonly caCert: string;
  readonly frontProxyCaCert: string;
  readonly serviceAccountKey: string;
  readonly serviceAccountPublicKey: string;
  readonly apiServer: PemFiles;
  readonly kubeletServing: PemFiles;
  readonly frontProxyClient: PemFiles;
  readonly clients: Record<ClientName, PemFiles>;
}

export interface PemFiles {
  readonly cert: string;
  readonly key: string;
}

export async function ensureClusterPki(dir: string): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pki = pkiPaths(dir);
  if (await exists(pki.serviceAccountPublicKey)) return pki;
  const validity = { notBefore: Date.now() - 3_600_000, notAfter: Date.now() + TEN_YEARS_MS };
  const ca = await createCertificateAuthority("kubevirt-ts-real-kubernetes-ca", validity);
  const frontProxyCa = await createCertificateAuthority("kubevirt-ts-front-proxy-ca", validity);
  const issue = async (files: PemFiles, by: CertificateAndKey, request: CertificateRequest) => {
    const issued = await issueCertificate(by, request, validity);
    await writeSecretFile(files.cert, issued.certPem);
    await writeSecretFile(files.key, issued.keyPem);
  };
  await issue(pki.apiServer, ca, {
    commonName: "kube-apiserver",
    usage: "serverAuth",
    dnsNames: [
      "kubernetes",
      "kubernetes.default",
      "kubernetes.default.svc",
      "kubernetes.default.svc.cluster.local",
      "localhost",
    ],
    ipAddresses: [NODE_IP, KUBERNETES_SERVICE_IP, "127.0.0.1"],
  });
  await issue(pki.kubeletServing, ca, {
    commonName: NODE_NAME,
    usage: "serverAuth",
    dnsNames: [NODE_NAME],
    ipAddresses: [NODE_IP],
  });
  await issue(pki.frontProxyClient, frontProxyCa, { commonName: "front-proxy-client", usage: "clientAuth" });
  for (const [name, identity] of Object.entries(CLIENTS) as [ClientName, (typeof CLIENTS)[ClientName]][]) {
    await issue(pki.clients[name], ca, {
      commonName: identity.commonName,
      ...("organizations" in identity ? { organizations: identity.organizations } : {}),
      usage: "clientAuth",
    });
  }
  // The service-account token signer: kube-apiserver and the controller-manager accept ECDSA keys.
  const signer = await generateKeyPairAsync("ec", { namedCurve: "P-256" });
  await writeSecretFile(
    pki.serviceAccountKey,
    signer.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  );
  await writeSecretFile(pki.caCert, ca.certPem);
  await writeSecretFile(join(dir, "ca.key"), ca.keyPem);
  await writeSecretFile(pki.frontProxyCaCert, frontProxyCa.certPem);
  // Written last: its presence says the whole set is there.
  await writeSecretFile(
    pki.serviceAccountPublicKey,
    signer.publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  return pki;
}

function pkiPaths(dir: string): ClusterPki {
  const pair = (name: string): PemFiles => ({
    cert: join(dir, `${name}.crt`),
    key: join(dir, `${name}.key`),
  });
  return {
    dir,
    caCert: join(dir, "ca.crt"),
    frontProxyCaCert: join(dir, "front-proxy-ca.crt"),
    serviceAccountKey: join(dir, "sa.key"),
    serviceAccountPublicKey: join(dir, "sa.pub"),
    apiServer: pair("apiserver"),
    kubeletServing: pair("kubelet-serving"),
    frontProxyClient: pair("front-proxy-client"),
    clients: Object.fromEntries(Object.keys(CLIENTS).map((name) => [name, pair(`client-${name}`)])) as Record<
      ClientName,
      PemFiles
    >,
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** A kubeconfig for one client identity, naming its certificate files. */
export async function kubeconfigYaml(pki: ClusterPki, client: ClientName, server: string): Promise<string> {
  const files = pki.clients[client];
  // Inline data keeps the kubeconfig usable from anywhere (kubectl run by the user, the tests).
  const data = async (path: string) => Buffer.from(await readFile(path)).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "  - name: kubevirt-ts-real",
    "    cluster:",
    `      server: ${server}`,
    `      certificate-authority-data: ${await data(pki.caCert)}`,
    "users:",
    `  - name: ${client}`,
    "    user:",
    `      client-certificate-data: ${await data(files.cert)}`,
    `      client-key-data: ${await data(files.key)}`,
    "contexts:",
    "  - name: kubevirt-ts-real",
    "    context:",
    "      cluster: kubevirt-ts-real",
    `      user: ${client}`,
    "current-context: kubevirt-ts-real",
    "",
  ].join("\n");
}
