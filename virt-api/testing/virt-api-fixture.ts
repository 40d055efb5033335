/**
 * virt-api's test cluster: the dev API server with the kubevirt.io CRDs and the `kubevirt`
 * namespace, the certificates (Secrets kubevirt-virt-api-certs and kubevirt-virt-handler-certs,
 * the front-proxy settings in kube-system/extension-apiserver-authentication), a fake
 * virt-handler on node-a, and virt-api in-process with the admin client. `call` and `stream`
 * reach virt-api as the API server's aggregation layer does: the front-proxy client certificate
 * and X-Remote-User / X-Remote-Group.
 */
import { Registry } from "prom-client";
import type { WebSocket } from "ws";
import { isAlreadyExists, isNotFound, KubeClient, namespaceKind } from "../../runtime/index.js";
import { secretKind } from "../../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { quietLog, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { installKubevirtCrds } from "../../test/harness/kubevirt-crds.js";
import { AUTHENTICATION_CONFIGMAP } from "../auth/request-header-config.js";
import { configMapKind, podKind } from "../kinds.js";
import { type RunningVirtApi, startVirtApi } from "../virt-api.js";
import { FakeHandler } from "./fake-handler.js";
import { type CallResult, FrontProxyClient, type Identity } from "./front-proxy-client.js";
import {
  type CertificateAndKey,
  FRONT_PROXY_NAME,
  issueTestCertificates,
  type TestCertificates,
} from "./test-certificates.js";

export { quietLog };
export const NAMESPACE = "kubevirt";
export const NODE_NAME = "node-a";

export interface VirtApiFixture {
  readonly api: TestApiServer;
  readonly client: KubeClient;
  readonly certificates: TestCertificates;
  readonly handler: FakeHandler;
  readonly virtApi: RunningVirtApi;
  call(method: string, path: string, options?: Identity & { body?: string }): Promise<CallResult>;
  /** Opens a WebSocket through virt-api; resolves once open, rejects with the refusal's code and body. */
  stream(path: string, options?: Identity): Promise<WebSocket>;
  /** Writes the front-proxy settings (creating or replacing the ConfigMap). */
  publishRequestHeaderSettings(caPem: string, allowedNames?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export async function startVirtApiFixture(
  options: { pingIntervalMs?: number } = {},
): Promise<VirtApiFixture> {
  const certificates = await issueTestCertificates();
  const api = await startTestApiServer();
  const client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "virt-api-test" });
  const handler = await FakeHandler.start(certificates.handlerServer, certificates.kubevirtCa.certPem);
  const stopping = new AbortController();
  let virtApi: RunningVirtApi | undefined;
  try {
    await prepareCluster(client, certificates);
    virtApi = await startVirtApi(
      {
        client,
        namespace: NAMESPACE,
        address: "127.0.0.1",
        port: 0,
        consoleServerPort: handler.port,
        registry: new Registry(),
        log: quietLog,
        ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
      },
      stopping.signal,
    );
    if (!virtApi) throw new Error("virt-api did not start");
  } catch (error) {
    await handler.close();
    client.close();
    await api.close();
    throw error;
  }
  const running = virtApi;
  const frontProxy = new FrontProxyClient(certificates, running.port);
  return {
    api,
    client,
    certificates,
    handler,
    virtApi: running,
    call: (method, path, identity) => frontProxy.call(method, path, identity),
    stream: (path, identity) => frontProxy.stream(path, identity),
    publishRequestHeaderSettings: (caPem, allowedNames = [FRONT_PROXY_NAME]) =>
      writeRequestHeaderSettings(client, caPem, allowedNames),
    async close() {
      stopping.abort();
      await running.stop();
      await handler.close();
      client.close();
      await api.close();
    },
  };
}

/** The namespaces, CRDs, Secrets, front-proxy settings and virt-handler pod virt-api expects. */
async function prepareCluster(client: KubeClient, certificates: TestCertificates): Promise<void> {
  await installKubevirtCrds(client);
  await ensureNamespace(client, NAMESPACE);
  await ensureNamespace(client, AUTHENTICATION_CONFIGMAP.namespace);
  const { kubevirtCa } = certificates;
  await createTlsSecret(client, CERTIFICATE_SECRETS.apiServer, certificates.virtApiServer, kubevirtCa);
  await createTlsSecret(client, CERTIFICATE_SECRETS.handlerClient, certificates.virtApiClient, kubevirtCa);
  await writeRequestHeaderSettings(client, certificates.frontProxyCa.certPem, [FRONT_PROXY_NAME]);
  await createHandlerPod(client);
}

async function ensureNamespace(client: KubeClient, name: string): Promise<void> {
  try {
    await client.resource(namespaceKind).create({ metadata: { name } });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

async function createTlsSecret(
  client: KubeClient,
  name: string,
  leaf: CertificateAndKey,
  ca: CertificateAndKey,
): Promise<void> {
  const base64 = (text: string) => Buffer.from(text).toString("base64");
  await client.resource(secretKind).create({
    metadata: { name, namespace: NAMESPACE },
    type: "kubernetes.io/tls",
    data: { "tls.crt": base64(leaf.certPem), "tls.key": base64(leaf.keyPem), "ca.crt": base64(ca.certPem) },
  });
}

async function writeRequestHeaderSettings(
  client: KubeClient,
  caPem: string,
  allowedNames: readonly string[],
): Promise<void> {
  const configMaps = client.resource(configMapKind);
  const data = {
    "requestheader-client-ca-file": caPem,
    "requestheader-allowed-names": JSON.stringify(allowedNames),
    "requestheader-username-headers": JSON.stringify(["X-Remote-User"]),
    "requestheader-group-headers": JSON.stringify(["X-Remote-Group"]),
    "requestheader-extra-headers-prefix": JSON.stringify(["X-Remote-Extra-"]),
  };
  try {
    const current = await configMaps.get(AUTHENTICATION_CONFIGMAP);
    await configMaps.update({ ...current, data: { ...current.data, ...data } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await configMaps.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { ...AUTHENTICATION_CONFIGMAP },
      data,
    });
  }
}

/** The virt-handler pod of node-a, Running at 127.0.0.1 (where the fake handler listens). */
async function createHandlerPod(client: KubeClient): Promise<void> {
  const pods = client.resource(podKind);
  await pods.create({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "virt-handler-test", namespace: NAMESPACE, labels: { "kubevirt.io": "virt-handler" } },
    spec: { nodeName: NODE_NAME, containers: [{ name: "virt-handler", image: "virt-handler" }] },
  });
  await pods.mergePatch(
    { namespace: NAMESPACE, name: "virt-handler-test" },
    { status: { phase: "Running", podIP: "127.0.0.1", podIPs: [{ ip: "127.0.0.1" }] } },
    { subresource: "status" },
  );
}
