import type { Controller, Manager } from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import { namespaceKind, serviceAccountKind } from "../kinds.js";
import {
  DefaultServiceAccountReconciler,
  defaultServiceAccountName,
} from "./default-service-account-reconciler.js";

/**
 * The service-account controller: every active namespace has a `default` ServiceAccount
 * (pods that name none run as it); one that is deleted comes back. Keys are namespace names.
 */
export function addDefaultServiceAccountController(
  manager: Manager,
  settings: ControllerSettings,
): Controller {
  const namespaces = manager.informer(namespaceKind);
  const serviceAccounts = manager.informer(serviceAccountKind);
  const reconciler = new DefaultServiceAccountReconciler({
    namespaces,
    serviceAccounts,
    serviceAccountClient: manager.client.resource(serviceAccountKind),
  });
  const controller = manager.controller({
    name: "serviceaccount",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(namespaces);
  controller.watch(serviceAccounts, (account) =>
    account.metadata?.name === defaultServiceAccountName ? [account.metadata.namespace ?? ""] : [],
  );
  return controller;
}
