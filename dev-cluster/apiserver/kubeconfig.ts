import { stringify } from "yaml";
import { writeSecretFile } from "./tls/secret-file.js";

export interface KubeconfigOptions {
  /** `https://<host>:<port>`: both kubectl and client-node send the token only over TLS. */
  server: string;
  caCertPem: string;
  token: string;
  /** Name of the cluster entry; the context is always `dev-cluster`. */
  clusterName?: string;
}

export const kubeconfigContextName = "dev-cluster";

/** The kubeconfig document: one cluster, one token user, one context that is current. */
export function kubeconfigYaml(opts: KubeconfigOptions): string {
  const clusterName = opts.clusterName ?? "dev-cluster";
  const userName = `${clusterName}-admin`;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name: clusterName,
        cluster: {
          server: opts.server,
          "certificate-authority-data": Buffer.from(opts.caCertPem, "utf8").toString("base64"),
        },
      },
    ],
    users: [{ name: userName, user: { token: opts.token } }],
    contexts: [
      {
        name: kubeconfigContextName,
        context: { cluster: clusterName, user: userName, namespace: "default" },
      },
    ],
    "current-context": kubeconfigContextName,
    preferences: {},
  });
}

/**
 * Writes a kubeconfig for the dev cluster, replacing any file at `path` atomically (readers never
 * see half a file) with mode 0600, since it holds a token. Parent directories are created.
 */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await writeSecretFile(path, kubeconfigYaml(opts), 0o600);
}
