import type { Logger } from "pino";
import type { KubeClient } from "../client/kube-client.js";
import type { BackoffOptions } from "../clock/backoff.js";
import type { Clock } from "../clock/clock.js";
import type { KubeObject } from "../objects/kube-object.js";
import { kindId, type ResourceKind } from "../objects/resource-kind.js";
import type { IndexFunction } from "./indexed-store.js";
import type { InformerMetrics } from "./informer-metrics.js";
import { type InformerOptions, SharedInformer } from "./shared-informer.js";

export interface InformerCacheOptions {
  client: KubeClient;
  log: Logger;
  clock?: Clock;
  /** Restrict every namespaced informer to one namespace (default: all namespaces). */
  namespace?: string;
  backoff?: BackoffOptions;
  minWatchTimeoutSeconds?: number;
  healthyAfterMs?: number;
  /** Applied to every object before it is cached (see stripManagedFields). */
  transform?: <T extends KubeObject>(object: T) => T;
  /** Metrics per kind (label by kind). */
  metricsFor?: (kind: ResourceKind) => InformerMetrics;
}

export interface InformerRequest<T> {
  /** Added to the informer if it does not have them yet. */
  indexers?: Readonly<Record<string, IndexFunction<T>>>;
  labelSelector?: string;
  fieldSelector?: string;
  resyncMs?: number;
}

/**
 * One informer per kind per process, shared by every controller (controller-runtime's cache).
 * Informers requested after `start` start at once.
 */
export class InformerCache {
  readonly #options: InformerCacheOptions;
  readonly #informers = new Map<
    string,
    { informer: SharedInformer<KubeObject>; request: InformerRequest<KubeObject> }
  >();
  #started = false;

  constructor(options: InformerCacheOptions) {
    this.#options = options;
  }

  informerFor<T extends KubeObject>(
    kind: ResourceKind<T>,
    request: InformerRequest<T> = {},
  ): SharedInformer<T> {
    const id = kindId(kind);
    const existing = this.#informers.get(id);
    if (existing) {
      assertSameSelectors(kind, existing.request, request as InformerRequest<KubeObject>);
      const informer = existing.informer as unknown as SharedInformer<T>;
      for (const [name, indexer] of Object.entries(request.indexers ?? {}))
        informer.addIndexer(name, indexer);
      return informer;
    }
    const informer = new SharedInformer<T>(this.#informerOptions(kind, request));
    this.#informers.set(id, {
      informer: informer as unknown as SharedInformer<KubeObject>,
      request: request as InformerRequest<KubeObject>,
    });
    if (this.#started) informer.start();
    return informer;
  }

  #informerOptions<T extends KubeObject>(
    kind: ResourceKind<T>,
    request: InformerRequest<T>,
  ): InformerOptions<T> {
    const {
      client,
      log,
      clock,
      namespace,
      backoff,
      minWatchTimeoutSeconds,
      healthyAfterMs,
      metricsFor,
      transform,
    } = this.#options;
    return {
      client: client.resource(kind),
      log,
      ...(clock ? { clock } : {}),
      ...(namespace && kind.namespaced ? { namespace } : {}),
      ...(request.labelSelector ? { labelSelector: request.labelSelector } : {}),
      ...(request.fieldSelector ? { fieldSelector: request.fieldSelector } : {}),
      ...(request.indexers ? { indexers: request.indexers } : {}),
      ...(request.resyncMs ? { resyncMs: request.resyncMs } : {}),
      ...(backoff ? { backoff } : {}),
      ...(minWatchTimeoutSeconds ? { minWatchTimeoutSeconds } : {}),
      ...(healthyAfterMs ? { healthyAfterMs } : {}),
      ...(metricsFor ? { metrics: metricsFor(kind) } : {}),
      ...(transform ? { transform } : {}),
    };
  }

  start(): void {
    this.#started = true;
    for (const { informer } of this.#informers.values()) informer.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#informers.values()].map(({ informer }) => informer.stop()));
  }

  /** True when every informer has synced. */
  hasSynced(): boolean {
    return [...this.#informers.values()].every(({ informer }) => informer.hasSynced());
  }

  /** Resolves true once every informer has synced; false if `signal` aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all(
      [...this.#informers.values()].map(({ informer }) => informer.waitForSync(signal)),
    );
    return results.every(Boolean);
  }

  informers(): SharedInformer<KubeObject>[] {
    return [...this.#informers.values()].map(({ informer }) => informer);
  }
}

function assertSameSelectors(
  kind: ResourceKind,
  first: InformerRequest<KubeObject>,
  second: InformerRequest<KubeObject>,
): void {
  if (
    (first.labelSelector ?? "") !== (second.labelSelector ?? "") ||
    (first.fieldSelector ?? "") !== (second.fieldSelector ?? "")
  ) {
    throw new Error(
      `the ${kind.plural} informer is shared: it already watches with selectors ` +
        `"${first.labelSelector ?? ""}" / "${first.fieldSelector ?? ""}"; filter in the cache instead`,
    );
  }
}
