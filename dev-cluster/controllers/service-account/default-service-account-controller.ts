import { type Controller, isAlreadyExists, type ReconcileRequest } from "../../../runtime/index.js";
import type { ControllerContext } from "../controller-context.js";
import { namespaceKind, type ServiceAccount, serviceAccountKind } from "../kinds.js";

export const defaultServiceAccountName = "default";

/**
 * The service-account controller: every active namespace has a `default` ServiceAccount
 * (pods that name none run as it); one that is deleted comes back. Keys are namespace names.
 */
export function addDefaultServiceAccountController(context: ControllerContext): Controller {
  const { manager } = context;
  const namespaces = manager.informer(namespaceKind);
  const serviceAccounts = manager.informer(serviceAccountKind);
  const client = manager.client.resource(serviceAccountKind);
  const controller = manager.controller({
    name: "serviceaccount",
    workers: context.workers,
    reconcile: (request) => ensureDefault(request),
  });
  controller.watch(namespaces);
  controller.watch(serviceAccounts, (account) =>
    account.metadata?.name === defaultServiceAccountName ? [account.metadata.namespace ?? ""] : [],
  );

  async function ensureDefault(request: ReconcileRequest): Promise<void> {
    const namespace = namespaces.get(request.key);
    // A namespace being deleted gets nothing new: its content is on its way out.
    if (!namespace || namespace.metadata?.deletionTimestamp || namespace.status?.phase === "Terminating")
      return;
    if (serviceAccounts.get({ namespace: request.name, name: defaultServiceAccountName })) return;
    const account: ServiceAccount = {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: defaultServiceAccountName, namespace: request.name },
    };
    try {
      await client.create(account);
      request.log.info("created the default service account");
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }

  return controller;
}
