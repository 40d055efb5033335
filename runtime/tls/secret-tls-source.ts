// TLS material read from one kubernetes.io/tls-shaped Secret (data keys `tls.crt`, `tls.key`,
// `ca.crt`) and followed by a list/watch on that Secret alone, so a rotation reaches the component
// without a restart. A list/watch rather than periodic gets: one request per change, and the
// reflector's backoff and relists come for free.
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { Logger } from "pino";
import type { KubeClient } from "../client/kube-client.js";
import { SharedInformer } from "../informer/shared-informer.js";
import type { Frozen, KubeObject } from "../objects/kube-object.js";
import { defineKind } from "../objects/resource-kind.js";
import type { TlsMaterial, TlsMaterialSource } from "./tls-material.js";

/** core/v1 Secret, as far as TLS material needs it. */
export interface Secret extends KubeObject {
  type?: string;
  /** Base64 values. */
  data?: Record<string, string>;
}

export const secretKind = defineKind<Secret>({
  group: "",
  version: "v1",
  kind: "Secret",
  plural: "secrets",
  namespaced: true,
});

/** The data keys, as KubeVirt's certificate Secrets carry them. */
export const TLS_SECRET_KEYS = { cert: "tls.crt", key: "tls.key", ca: "ca.crt" } as const;

export interface SecretTlsSourceOptions {
  readonly namespace: string;
  readonly name: string;
  readonly log: Logger;
}

export class SecretTlsSource implements TlsMaterialSource {
  readonly #log: Logger;
  readonly #informer: SharedInformer<Secret>;
  readonly #listeners = new Set<(material: TlsMaterial) => void>();
  readonly #stopped = new AbortController();
  #current: TlsMaterial | undefined;
  #started = false;

  constructor(client: KubeClient, options: SecretTlsSourceOptions) {
    this.#log = options.log.child({ secret: `${options.namespace}/${options.name}` });
    this.#informer = new SharedInformer<Secret>({
      client: client.resource(secretKind),
      log: this.#log,
      namespace: options.namespace,
      fieldSelector: `metadata.name=${options.name}`,
    });
    this.#informer.addEventHandler({
      onAdd: (secret) => this.#read(secret),
      onUpdate: (_previous, secret) => this.#read(secret),
      onDelete: () => this.#forget(),
    });
  }

  /** Starts following the Secret; resolves once it was read or found missing (or on stop()). */
  async start(): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      this.#informer.start();
    }
    await this.#informer.waitForSync(this.#stopped.signal);
  }

  async stop(): Promise<void> {
    this.#stopped.abort();
    await this.#informer.stop();
  }

  current(): TlsMaterial | undefined {
    return this.#current;
  }

  onChange(listener: (material: TlsMaterial) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #read(secret: Frozen<Secret>): void {
    let material: TlsMaterial;
    try {
      material = materialOf(secret);
    } catch (error) {
      // Keep serving with what we had: a half-written or foreign Secret must not take TLS down.
      this.#log.warn({ err: error }, "the TLS Secret holds no usable certificate: keeping the previous one");
      return;
    }
    if (this.#current && sameMaterial(this.#current, material)) return;
    this.#current = material;
    for (const listener of [...this.#listeners]) {
      try {
        listener(material);
      } catch (error) {
        this.#log.error({ err: error }, "a TLS material listener threw");
      }
    }
  }

  #forget(): void {
    this.#current = undefined;
    this.#log.warn("the TLS Secret was deleted");
  }
}

/** Decodes and checks the Secret's three keys; throws with the reason when they are unusable. */
export function materialOf(secret: Frozen<Secret>): TlsMaterial {
  const decode = (key: string): string => {
    const value = secret.data?.[key];
    if (!value) throw new Error(`data key ${key} is missing or empty`);
    return Buffer.from(value, "base64").toString("utf8");
  };
  const material: TlsMaterial = {
    certPem: decode(TLS_SECRET_KEYS.cert),
    keyPem: decode(TLS_SECRET_KEYS.key),
    caPem: decode(TLS_SECRET_KEYS.ca),
  };
  let matches: boolean;
  try {
    new X509Certificate(material.caPem); // the bundle's first certificate at least
    matches = new X509Certificate(material.certPem).checkPrivateKey(createPrivateKey(material.keyPem));
  } catch (error) {
    throw new Error("the certificate, key or CA bundle does not parse", { cause: error });
  }
  if (!matches) throw new Error(`${TLS_SECRET_KEYS.key} is not the key of ${TLS_SECRET_KEYS.cert}`);
  return material;
}

function sameMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  return a.certPem === b.certPem && a.keyPem === b.keyPem && a.caPem === b.caPem;
}
