/**
 * virt-api composed: the TLS sources (its serving Secret, its client Secret towards
 * virt-handler, the front-proxy settings), the KubeVirt CR's settings, and the HTTPS server
 * with the subresource API and the webhooks. `main.ts` calls it with the flags' values; tests
 * call it in-process with their own client.
 */
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { readVersionInfo } from "../api/index.js";
import {
  DEFAULT_PING_INTERVAL_MS,
  type KubeClient,
  kindId,
  RuntimeMetrics,
  SharedInformer,
} from "../runtime/index.js";
import { SecretTlsSource } from "../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS, firstMaterial } from "../runtime/tls/tls-material.js";
import { RequestHeaderSource } from "./auth/request-header-source.js";
import { type Authorizer, SubjectAccessReviewAuthorizer } from "./auth/subject-access-review.js";
import { KubeVirtClusterSettings } from "./config/cluster-settings.js";
import { DEFAULT_CONSOLE_SERVER_PORT, HandlerClient } from "./handler/handler-client.js";
import { HandlerLocator } from "./handler/handler-locator.js";
import { type KubeVirt, kubeVirtKind, podKind, vmiKind, vmKind } from "./kinds.js";
import { VirtApiMetrics } from "./server/virt-api-metrics.js";
import { type RunningVirtApiServer, startVirtApiServer } from "./server/virt-api-server.js";
import { ApiInferenceSource } from "./webhooks/vm-inference.js";
import { ApiReferenceReader } from "./webhooks/vm-references.js";

export interface VirtApiOptions {
  readonly client: KubeClient;
  /** Where virt-api, its Secrets, the virt-handler pods and the KubeVirt CR are. */
  readonly namespace: string;
  readonly address: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** virt-handler's console server port (default 8186). */
  readonly consoleServerPort?: number;
  readonly registry: Registry;
  readonly log: Logger;
  /** Default: SubjectAccessReviews through `client`. */
  readonly authorizer?: Authorizer;
  /** Default 15 s. */
  readonly pingIntervalMs?: number;
}

export interface RunningVirtApi {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts following the sources, waits for the serving certificate (virt-operator issues it;
 * until it exists there is nothing to serve with), then serves. Resolves undefined when
 * `signal` aborts while waiting.
 */
export async function startVirtApi(
  options: VirtApiOptions,
  signal: AbortSignal,
): Promise<RunningVirtApi | undefined> {
  const { client, namespace, log } = options;
  const sources = new VirtApiSources(client, namespace, log, options.registry);
  await sources.start();
  if (!sources.serving.current()) {
    log.warn({ secret: CERTIFICATE_SECRETS.apiServer }, "waiting for the serving certificate");
  }
  const initialMaterial = await firstMaterial(sources.serving, signal);
  if (!initialMaterial) {
    await sources.stop();
    return undefined;
  }
  const metrics = new VirtApiMetrics(options.registry);
  const clusterSettings = new KubeVirtClusterSettings(sources.kubevirts, namespace);
  const references = new ApiReferenceReader(client);
  let server: RunningVirtApiServer;
  try {
    server = await startVirtApiServer({
      host: options.address,
      port: options.port,
      tls: { serving: sources.serving, requestHeader: sources.requestHeader },
      initialMaterial,
      registry: options.registry,
      readiness: () => sources.readiness(),
      subresources: {
        vms: client.resource(vmKind),
        vmis: client.resource(vmiKind),
        pods: client.resource(podKind),
        authorizer: options.authorizer ?? new SubjectAccessReviewAuthorizer(client),
        clusterSettings,
        references,
        requestHeader: sources.requestHeader,
        handlerLocator: new HandlerLocator(client.resource(podKind), namespace),
        handlerClient: new HandlerClient({
          tls: sources.handlerTls,
          port: options.consoleServerPort ?? DEFAULT_CONSOLE_SERVER_PORT,
        }),
        metrics,
        log,
        pingIntervalMs: options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
      },
      webhooks: {
        settings: clusterSettings,
        references,
        inference: new ApiInferenceSource(client),
        installNamespace: namespace,
        metrics,
        log,
      },
      versionInfo: readVersionInfo(),
      log,
    });
  } catch (error) {
    await sources.stop();
    throw error;
  }
  return {
    url: server.url,
    port: server.port,
    async stop() {
      await server.close();
      await sources.stop();
    },
  };
}

/** What virt-api follows in the API: its two certificate Secrets, the front-proxy settings, the KubeVirt CR. */
class VirtApiSources {
  readonly serving: SecretTlsSource;
  readonly handlerTls: SecretTlsSource;
  readonly requestHeader: RequestHeaderSource;
  readonly kubevirts: SharedInformer<KubeVirt>;

  constructor(client: KubeClient, namespace: string, log: Logger, registry: Registry) {
    this.serving = new SecretTlsSource(client, { namespace, name: CERTIFICATE_SECRETS.apiServer, log });
    this.handlerTls = new SecretTlsSource(client, {
      namespace,
      name: CERTIFICATE_SECRETS.handlerClient,
      log,
    });
    this.requestHeader = new RequestHeaderSource(client, log);
    this.kubevirts = new SharedInformer<KubeVirt>({
      client: client.resource(kubeVirtKind),
      log,
      namespace,
      metrics: new RuntimeMetrics(registry).forInformer(kindId(kubeVirtKind)),
    });
  }

  /** Resolves once the Secrets and the ConfigMap were read (or found missing). */
  async start(): Promise<void> {
    this.kubevirts.start();
    await Promise.all([this.serving.start(), this.handlerTls.start(), this.requestHeader.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.serving.stop(),
      this.handlerTls.stop(),
      this.requestHeader.stop(),
      this.kubevirts.stop(),
    ]);
  }

  readiness(): { ready: boolean; detail: string } {
    if (!this.serving.current()) {
      return { ready: false, detail: `no serving certificate (Secret ${CERTIFICATE_SECRETS.apiServer})` };
    }
    if (!this.requestHeader.hasSynced() || !this.kubevirts.hasSynced()) {
      return { ready: false, detail: "caches not synced" };
    }
    return { ready: true, detail: "" };
  }
}
