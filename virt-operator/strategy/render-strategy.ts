import { renderCommonInstancetypes } from "../common-instancetypes/render-common-instancetypes.js";
import { renderWebhookConfigurations } from "./admission-webhooks.js";
import { renderSubresourcesApiService } from "./api-service.js";
import { renderCrds } from "./crds.js";
import { IDENTIFIER_ANNOTATION, type ManagedObject, type RenderStrategy } from "./install-strategy.js";
import { renderPriorityClass } from "./priority-class.js";
import { renderRbac } from "./rbac-objects.js";
import { renderContextOf } from "./render-context.js";
import { renderServiceAccounts } from "./service-accounts.js";
import { strategyDigest } from "./strategy-digest.js";
import { renderVirtApiDeployment } from "./virt-api-deployment.js";
import { renderVirtApiService } from "./virt-api-service.js";
import { renderVirtControllerDeployment } from "./virt-controller-deployment.js";
import { renderVirtHandlerDaemonSet } from "./virt-handler-daemonset.js";

/**
 * The install strategy for one KubeVirt CR: CRDs, ServiceAccounts, ClusterRoles,
 * ClusterRoleBindings, Roles, RoleBindings, the PriorityClass, virt-api's Service, the
 * workloads, then the APIService and the webhook configurations, in the order they must be
 * applied (each needs only what comes before it; uninstall goes the other way, so the API
 * server stops calling virt-api before virt-api goes). A pure function: same operator, same CR,
 * same CA bundle, same objects and the same id.
 */
export const renderStrategy: RenderStrategy = (operator, kubevirt, trust) => {
  const context = renderContextOf(operator, kubevirt, trust);
  const rbac = renderRbac(context);
  const objects: ManagedObject[] = [
    ...renderCrds(context),
    ...renderServiceAccounts(context),
    ...rbac.clusterRoles,
    ...rbac.clusterRoleBindings,
    ...rbac.roles,
    ...rbac.roleBindings,
    renderPriorityClass(context),
    renderVirtApiService(context),
    renderVirtApiDeployment(context),
    renderVirtControllerDeployment(context),
    renderVirtHandlerDaemonSet(context),
    renderSubresourcesApiService(context),
    ...renderWebhookConfigurations(context),
  ];
  const id = strategyDigest(objects);
  for (const object of objects) object.metadata.annotations[IDENTIFIER_ANNOTATION] = id;
  // The common set is not in the digest: it follows the operator's version, and a hand edit of
  // one of its objects is found by comparing it with what is rendered, not by the identifier.
  const commonInstancetypes = context.commonInstancetypesEnabled ? renderCommonInstancetypes(context) : [];
  return { registry: context.registry, version: context.version, id, objects, commonInstancetypes };
};
