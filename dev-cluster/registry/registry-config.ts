// The configuration file of Debian's docker-registry (CNCF distribution 2.8) for the dev cluster:
// everything under one data directory, plain HTTP on one address, deletes allowed (tests clean up
// their images) and no redirects (blobs are served by the registry itself, never by a storage URL).
import { stringify } from "yaml";

export interface RegistryConfigInput {
  /** Where the registry stores blobs and manifests. */
  readonly storageDir: string;
  /** host:port to listen on (never port 0: the registry cannot say which port it picked). */
  readonly address: string;
  /** An htpasswd file with bcrypt lines: Basic auth for every request. */
  readonly htpasswdPath?: string;
  /** Signs upload-state tokens; distribution warns and makes one up when it is missing. */
  readonly httpSecret: string;
}

export function registryConfigYaml(input: RegistryConfigInput): string {
  const config = {
    version: 0.1,
    log: { level: "warn", formatter: "text", accesslog: { disabled: true } },
    storage: {
      filesystem: { rootdirectory: input.storageDir },
      delete: { enabled: true },
      redirect: { disable: true },
      cache: { blobdescriptor: "inmemory" },
    },
    http: {
      addr: input.address,
      secret: input.httpSecret,
      headers: { "X-Content-Type-Options": ["nosniff"] },
    },
    ...(input.htpasswdPath
      ? { auth: { htpasswd: { realm: "kubevirt-ts dev registry", path: input.htpasswdPath } } }
      : {}),
    // No periodic storage probe: the store is a local directory, and readiness is `GET /v2/`.
    health: { storagedriver: { enabled: false } },
  };
  return `# written by dev-cluster/registry; rewritten on every start\n${stringify(config)}`;
}
