/**
 * virtctl's test cluster: virt-api's fixture (the dev API server with the kubevirt.io CRDs,
 * virt-api in-process, a fake virt-handler that checks virt-api's client certificate and echoes
 * console bytes), joined the way a real install joins them: virt-api trusts the dev API server's
 * front proxy, and an APIService with a selector-less Service and Endpoints at 127.0.0.1 sends
 * `/apis/subresources.kubevirt.io/v1` there. virtctl runs as a child process, compiled, with the
 * dev server's kubeconfig, exactly as a user runs it.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { ensureFrontProxyCertificates } from "../../dev-cluster/apiserver/aggregation/front-proxy-certificates.js";
import { localServiceManifest } from "../../test/apiserver/testing/tls-backend.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import {
  NAMESPACE,
  startVirtApiFixture,
  type VirtApiFixture,
} from "../../virt-api/testing/virt-api-fixture.js";

/** The compiled virtctl next to this file's build. */
export const VIRTCTL_MAIN = fileURLToPath(new URL("../main.js", import.meta.url));

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly input?: string;
  /** Replaces `--kubeconfig <the admin's>` (pass [] to rely on the environment). */
  readonly kubeconfigArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export interface VirtctlCluster {
  readonly fixture: VirtApiFixture;
  readonly kubeconfigPath: string;
  /** Runs virtctl to its end. */
  run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Starts virtctl with piped stdio, for the console and vnc. */
  spawn(args: readonly string[], options?: Pick<RunOptions, "env">): ChildProcessWithoutNullStreams;
  /** A kubeconfig like the admin's, with another bearer token. */
  writeKubeconfigWithToken(fileName: string, token: string): Promise<string>;
  kubectl(args: string[], input?: string): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startVirtctlCluster(
  options: { pingIntervalMs?: number } = {},
): Promise<VirtctlCluster> {
  const fixture = await startVirtApiFixture(options);
  const { api } = fixture;
  try {
    await aggregateVirtApi(fixture);
  } catch (error) {
    await fixture.close();
    throw error;
  }
  const kubeconfigPath = api.kubeconfigPath;
  const childEnv = (extra: Readonly<Record<string, string>> = {}) => {
    // The test's own kubeconfig settings must not leak into virtctl's.
    const { KUBECONFIG: _ignored, ...rest } = process.env;
    return { ...rest, HOME: api.dataDir, ...extra };
  };
  return {
    fixture,
    kubeconfigPath,
    run: (args, runOptions = {}) =>
      new Promise((resolve) => {
        const child = execFile(
          process.execPath,
          [
            "--enable-source-maps",
            VIRTCTL_MAIN,
            ...(runOptions.kubeconfigArgs ?? ["--kubeconfig", kubeconfigPath]),
            ...args,
          ],
          { timeout: runOptions.timeoutMs ?? 60_000, env: childEnv(runOptions.env) },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
        child.stdin?.end(runOptions.input ?? "");
      }),
    spawn: (args, spawnOptions = {}) =>
      spawn(
        process.execPath,
        ["--enable-source-maps", VIRTCTL_MAIN, "--kubeconfig", kubeconfigPath, ...args],
        {
          env: childEnv(spawnOptions.env),
          stdio: "pipe",
        },
      ),
    async writeKubeconfigWithToken(fileName, token) {
      const config = parse(await readFile(kubeconfigPath, "utf8")) as {
        users: { user: Record<string, unknown> }[];
      };
      for (const entry of config.users) entry.user = { token };
      const path = join(api.dataDir, fileName);
      await writeFile(path, stringify(config), { mode: 0o600 });
      return path;
    },
    kubectl: (args, input) => api.kubectl(args, input === undefined ? {} : { input }),
    close: () => fixture.close(),
  };
}

/**
 * Registers virt-api with the dev API server's aggregation layer. virt-api is first told to trust
 * the dev server's front proxy (the fixture published a front proxy of its own), and the
 * APIService is created only once virt-api accepts it, so the first availability check passes.
 */
async function aggregateVirtApi(fixture: VirtApiFixture): Promise<void> {
  const { api, certificates, virtApi } = fixture;
  const frontProxy = await ensureFrontProxyCertificates(api.dataDir);
  await fixture.publishRequestHeaderSettings(frontProxy.caCertPem);
  await eventually("virt-api to trust the dev API server's front proxy", async () => {
    const answer = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1", {
      certificate: { certPem: frontProxy.clientCertPem, keyPem: frontProxy.clientKeyPem },
    });
    return answer.code === 200 ? true : undefined;
  });
  const caBundle = Buffer.from(certificates.kubevirtCa.certPem).toString("base64");
  const manifest = `${localServiceManifest(NAMESPACE, "virt-api", virtApi.port)}---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.subresources.kubevirt.io}
spec:
  group: subresources.kubevirt.io
  version: v1
  groupPriorityMinimum: 1000
  versionPriority: 15
  caBundle: ${caBundle}
  service: {namespace: ${NAMESPACE}, name: virt-api}
`;
  const applied = await api.kubectl(["apply", "-f", "-"], { input: manifest });
  if (applied.code !== 0) throw new Error(`cannot register virt-api: ${applied.stderr}`);
  await eventually("the APIService v1.subresources.kubevirt.io to be Available", async () => {
    const answer = await api.kubectl(["get", "--raw", "/apis/subresources.kubevirt.io/v1"]);
    return answer.code === 0 ? true : undefined;
  });
}
