import {
  isAlreadyExists,
  type Namespace,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../../runtime/index.js";
import type { ServiceAccount } from "../kinds.js";

export const defaultServiceAccountName = "default";

export interface DefaultServiceAccountReconcilerDeps {
  namespaces: SharedInformer<Namespace>;
  serviceAccounts: SharedInformer<ServiceAccount>;
  serviceAccountClient: ResourceClient<ServiceAccount>;
}

/** One reconcile of one namespace (the key is its name): its `default` ServiceAccount exists. */
export class DefaultServiceAccountReconciler {
  readonly #deps: DefaultServiceAccountReconcilerDeps;

  constructor(deps: DefaultServiceAccountReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { namespaces, serviceAccounts, serviceAccountClient } = this.#deps;
    const namespace = namespaces.get(request.key);
    // A namespace being deleted gets nothing new: its content is on its way out.
    if (!namespace || namespace.metadata?.deletionTimestamp || namespace.status?.phase === "Terminating")
      return {};
    if (serviceAccounts.get({ namespace: request.name, name: defaultServiceAccountName })) return {};
    const account: ServiceAccount = {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: defaultServiceAccountName, namespace: request.name },
    };
    try {
      await serviceAccountClient.create(account);
      request.log.info("created the default service account");
    } catch (error) {
      // The cache has not shown one created a moment ago (by us or anyone): it is there.
      if (!isAlreadyExists(error)) throw error;
    }
    return {};
  }
}
