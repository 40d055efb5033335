import type { ObjectStore } from "../storage/object-store.js";
import { type Webhook, type WebhookKind, webhooksOf } from "./webhook-configuration.js";

const RESOURCES: Record<WebhookKind, string> = {
  mutating: "admissionregistration.k8s.io/mutatingwebhookconfigurations",
  validating: "admissionregistration.k8s.io/validatingwebhookconfigurations",
};

/**
 * The webhooks of the stored Mutating- and ValidatingWebhookConfigurations, in the order
 * kube-apiserver calls them: configurations sorted by name, webhooks in their listed order.
 * Parsed once per change of the configurations, not per request.
 */
export class WebhookSource {
  readonly #store: ObjectStore;
  readonly #cache = new Map<WebhookKind, Webhook[]>();
  readonly #stopWatching: () => void;

  constructor(store: ObjectStore) {
    this.#store = store;
    this.#stopWatching = store.onChange((event) => {
      for (const [kind, resource] of Object.entries(RESOURCES) as [WebhookKind, string][]) {
        if (event.resource === resource) this.#cache.delete(kind);
      }
    });
  }

  webhooks(kind: WebhookKind): Webhook[] {
    let webhooks = this.#cache.get(kind);
    if (!webhooks) {
      // The store lists objects in key order, which for cluster-scoped objects is name order.
      webhooks = this.#store
        .list(RESOURCES[kind])
        .flatMap((configuration) => webhooksOf(configuration, kind));
      this.#cache.set(kind, webhooks);
    }
    return webhooks;
  }

  stop(): void {
    this.#stopWatching();
  }
}
