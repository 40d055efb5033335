import { KUBEVIRT_SERVICE_ACCOUNTS } from "../../api/index.js";
import type { ManagedObject } from "./install-strategy.js";
import { managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";

/** KubeVirt's service account names: one identity per component, so each gets only its own RBAC. */
export const CONTROLLER_SERVICE_ACCOUNT = KUBEVIRT_SERVICE_ACCOUNTS.controller;
export const HANDLER_SERVICE_ACCOUNT = KUBEVIRT_SERVICE_ACCOUNTS.handler;
export const API_SERVICE_ACCOUNT = KUBEVIRT_SERVICE_ACCOUNTS.apiServer;

export function renderServiceAccounts(context: RenderContext): ManagedObject[] {
  return [API_SERVICE_ACCOUNT, CONTROLLER_SERVICE_ACCOUNT, HANDLER_SERVICE_ACCOUNT].map((name) => ({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: managedMetadata(context, name, { namespaced: true }),
  }));
}
