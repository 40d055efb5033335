/**
 * Reads and writes of the certificate Secrets, safe against the cache's lag behind our own
 * writes. Re-issuing is not idempotent (every issue makes a new key), so a reconcile that ran
 * before the cache showed our last write must not issue again: until the informer reports a
 * version of the Secret other than the one we replaced, reads answer with what we wrote. Writes
 * are conditional (create, or update at the version read), so a Secret changed meanwhile makes
 * the write fail with a Conflict, and the retry starts from the new state.
 */
import {
  type Frozen,
  isAlreadyExists,
  mutableCopy,
  type ObjectRef,
  type ResourceClient,
  refKey,
  type SharedInformer,
} from "../../runtime/index.js";
import type { Secret } from "../../runtime/tls/secret-tls-source.js";
import type { InstalledObject } from "../kubevirt/managed-kinds.js";
import { OPERATOR_FIELD_MANAGER } from "../strategy/install-strategy.js";

/** Our last write of one Secret, until the cache has caught up with it. */
interface PendingWrite {
  readonly written: Frozen<Secret>;
  /** The resourceVersion we replaced (undefined: we created it). */
  readonly replaced: string | undefined;
}

export class CertificateSecrets {
  readonly #informer: SharedInformer<InstalledObject>;
  readonly #client: ResourceClient<Secret>;
  readonly #pending = new Map<string, PendingWrite>();

  /** `informer`: the operator's label-selected Secret cache (managed-objects.ts). */
  constructor(informer: SharedInformer<InstalledObject>, client: ResourceClient<Secret>) {
    this.#informer = informer;
    this.#client = client;
    informer.addEventHandler({
      onAdd: (secret) => this.#observed(secret, false),
      onUpdate: (_previous, secret) => this.#observed(secret, false),
      onDelete: (secret) => this.#observed(secret, true),
    });
  }

  /** The Secret as it is now: the cache's, or our own write while the cache does not show it yet. */
  current(ref: Required<ObjectRef>): Frozen<Secret> | undefined {
    const pending = this.#pending.get(refKey(ref));
    const cached = this.#informer.get(ref) as Frozen<Secret> | undefined;
    if (!pending) return cached;
    if (
      cached !== undefined &&
      cached.metadata?.resourceVersion === pending.written.metadata?.resourceVersion
    ) {
      this.#pending.delete(refKey(ref));
      return cached;
    }
    return pending.written;
  }

  /**
   * Writes `desired` over `live` (what `current` returned): a create when there was none, else
   * an update at live's resourceVersion that keeps labels and annotations others added.
   */
  async write(
    desired: Secret,
    live: Frozen<Secret> | undefined,
    signal: AbortSignal,
  ): Promise<Frozen<Secret>> {
    const ref = { namespace: desired.metadata?.namespace ?? "", name: desired.metadata?.name ?? "" };
    const options = { fieldManager: OPERATOR_FIELD_MANAGER, signal };
    let written: Secret;
    if (live) {
      written = await this.#client.update(merged(live, desired), options);
    } else {
      try {
        written = await this.#client.create(desired, options);
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
        // There, but not in our cache: it lacks the managed-by label (a leftover, or someone
        // removed it). Take it over at the version found.
        written = await this.#client.update(
          merged(await this.#client.get(ref, { signal }), desired),
          options,
        );
      }
    }
    this.#pending.set(refKey(ref), {
      written: written as Frozen<Secret>,
      replaced: live?.metadata?.resourceVersion,
    });
    return written as Frozen<Secret>;
  }

  /** Any event showing a version other than the one we replaced means the cache has caught up. */
  #observed(object: Frozen<InstalledObject>, deleted: boolean): void {
    const { name, namespace, resourceVersion } = object.metadata ?? {};
    if (!name) return;
    const key = refKey({ name, namespace });
    const pending = this.#pending.get(key);
    if (pending && (deleted || resourceVersion !== pending.replaced)) this.#pending.delete(key);
  }
}

function merged(live: Frozen<Secret> | Secret, desired: Secret): Secret {
  const base = mutableCopy<Secret>(live as Frozen<Secret>);
  return {
    ...base,
    metadata: {
      ...base.metadata,
      labels: { ...base.metadata?.labels, ...desired.metadata?.labels },
      annotations: { ...base.metadata?.annotations, ...desired.metadata?.annotations },
    },
    type: desired.type,
    data: { ...desired.data },
  };
}
