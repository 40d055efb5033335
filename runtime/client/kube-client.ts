import type { KubeConfig } from "@kubernetes/client-node";
import type { KubeObject } from "../objects/kube-object.js";
import { kindId, type ResourceKind } from "../objects/resource-kind.js";
import { ResourceClient } from "./resource-client.js";
import { KubeTransport, type TransportOptions } from "./transport.js";

export interface KubeClientOptions extends TransportOptions {
  /** The default field manager of writes (managedFields), e.g. the component's name. */
  fieldManager: string;
}

/** The entry point to the API: one transport (one connection pool), a typed client per kind. */
export class KubeClient {
  readonly transport: KubeTransport;
  readonly fieldManager: string;
  readonly #clients = new Map<string, ResourceClient<KubeObject>>();

  constructor(transport: KubeTransport, fieldManager: string) {
    this.transport = transport;
    this.fieldManager = fieldManager;
  }

  static fromKubeConfig(kubeConfig: KubeConfig, options: KubeClientOptions): KubeClient {
    return new KubeClient(new KubeTransport(kubeConfig, options), options.fieldManager);
  }

  resource<T extends KubeObject>(kind: ResourceKind<T>): ResourceClient<T> {
    const id = kindId(kind);
    let client = this.#clients.get(id);
    if (!client) {
      client = new ResourceClient<T>(
        this.transport,
        kind,
        this.fieldManager,
      ) as unknown as ResourceClient<KubeObject>;
      this.#clients.set(id, client);
    }
    return client as unknown as ResourceClient<T>;
  }

  close(): void {
    this.transport.close();
  }
}
