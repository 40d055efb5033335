/**
 * The request-header settings, followed: a list/watch on the one ConfigMap (in kube-system, by
 * name, so virt-api needs no wider read than kube's extension-apiserver-authentication-reader
 * role grants), parsed once per change. A rotated front-proxy CA applies to the next request.
 */
import type { Logger } from "pino";
import { type Frozen, jsonEqual, type KubeClient, SharedInformer } from "../../runtime/index.js";
import { type ConfigMap, configMapKind } from "../kinds.js";
import {
  AUTHENTICATION_CONFIGMAP,
  parseRequestHeaderConfig,
  type RequestHeaderConfig,
} from "./request-header-config.js";

export class RequestHeaderSource {
  readonly #informer: SharedInformer<ConfigMap>;
  readonly #log: Logger;
  readonly #listeners = new Set<(config: RequestHeaderConfig | undefined) => void>();
  readonly #stopped = new AbortController();
  #current: RequestHeaderConfig | undefined;
  #started = false;

  constructor(client: KubeClient, log: Logger) {
    this.#log = log.child({
      configMap: `${AUTHENTICATION_CONFIGMAP.namespace}/${AUTHENTICATION_CONFIGMAP.name}`,
    });
    this.#informer = new SharedInformer<ConfigMap>({
      client: client.resource(configMapKind),
      log: this.#log,
      namespace: AUTHENTICATION_CONFIGMAP.namespace,
      fieldSelector: `metadata.name=${AUTHENTICATION_CONFIGMAP.name}`,
    });
    this.#informer.addEventHandler({
      onAdd: (configMap) => this.#read(configMap),
      onUpdate: (_previous, configMap) => this.#read(configMap),
      onDelete: () => this.#set(undefined),
    });
  }

  /** Starts following the ConfigMap; resolves once it was read or found missing (or on stop()). */
  async start(): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      this.#informer.start();
    }
    await this.#informer.waitForSync(this.#stopped.signal);
    if (!this.#current) this.#log.warn("no request-header authentication configured: every caller gets 401");
  }

  async stop(): Promise<void> {
    this.#stopped.abort();
    await this.#informer.stop();
  }

  hasSynced(): boolean {
    return this.#informer.hasSynced();
  }

  /** The settings, or undefined while none are published (no caller is trusted then). */
  current(): RequestHeaderConfig | undefined {
    return this.#current;
  }

  /** Called with each change (undefined when the settings went away); returns an unsubscribe. */
  onChange(listener: (config: RequestHeaderConfig | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #read(configMap: Frozen<ConfigMap>): void {
    let config: RequestHeaderConfig | undefined;
    try {
      config = parseRequestHeaderConfig(configMap.data);
    } catch (error) {
      // Keep what we had: a half-written ConfigMap must not lock every caller out (nor let anyone in).
      this.#log.warn({ err: error }, "the request-header settings do not parse: keeping the previous ones");
      return;
    }
    this.#set(config);
  }

  #set(config: RequestHeaderConfig | undefined): void {
    if (sameConfig(this.#current, config)) return;
    this.#current = config;
    this.#log.info(
      { configured: config !== undefined, allowedNames: config?.allowedNames },
      "request-header authentication settings",
    );
    for (const listener of [...this.#listeners]) {
      try {
        listener(config);
      } catch (error) {
        this.#log.error({ err: error }, "a request-header settings listener threw");
      }
    }
  }
}

function sameConfig(a: RequestHeaderConfig | undefined, b: RequestHeaderConfig | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const { caCertificates: _a, ...restA } = a;
  const { caCertificates: _b, ...restB } = b;
  return jsonEqual(restA, restB);
}
