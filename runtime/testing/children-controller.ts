/**
 * A small level-based controller the runtime's tests run: a Widget asks for `spec.children`
 * ConfigMaps; the controller creates the missing ones (with generated names, so a controller
 * that trusted a stale cache would create duplicates), deletes extras, and reports
 * `status.phase`. It uses expectations to cover the cache lag after its own creates.
 */

import type { Controller } from "../controller/controller.js";
import { controllerOwnerKey } from "../controller/enqueue-mappers.js";
import { Expectations } from "../controller/expectations.js";
import type { ReconcileRequest } from "../controller/reconcile-result.js";
import { byControllerUid } from "../informer/indexed-store.js";
import type { Manager } from "../manager/manager.js";
import type { Frozen } from "../objects/kube-object.js";
import { objectKey } from "../objects/object-key.js";
import { apiVersionOf } from "../objects/resource-kind.js";
import { type ConfigMap, configMapKind, type Widget, widgetKind } from "./test-kinds.js";

export interface ChildrenControllerOptions {
  workers?: number;
  /** Called after each child is created (the kill test stops the process here). */
  afterCreate?: () => Promise<void>;
}

export function addChildrenController(manager: Manager, options: ChildrenControllerOptions = {}): Controller {
  const widgets = manager.informer(widgetKind);
  const children = manager.informer(configMapKind, { indexers: { owner: byControllerUid } });
  const expectations = new Expectations();
  const ownerKeyOf = controllerOwnerKey<ConfigMap>(widgetKind);
  const controller = manager.controller({
    name: "children",
    workers: options.workers ?? 2,
    reconcile: async (request) => {
      const parent = widgets.get(request.key);
      if (!parent) {
        expectations.delete(request.key);
        return {};
      }
      // Our last creates or deletes are not all in the cache yet: counting now would be wrong.
      if (!expectations.satisfied(request.key)) return {};
      const owned = children.byIndex("owner", parent.metadata?.uid ?? "");
      await reconcileChildren(manager, parent, owned, expectations, request, options);
      return {};
    },
  });
  controller.watch(widgets);
  controller.watch(children, ownerKeyOf);
  children.addEventHandler({
    onAdd: (child) => {
      for (const key of ownerKeyOf(child)) expectations.creationObserved(key);
    },
    onDelete: (child) => {
      for (const key of ownerKeyOf(child)) expectations.deletionObservedOf(key, objectKey(child));
    },
  });
  return controller;
}

async function reconcileChildren(
  manager: Manager,
  parent: Frozen<Widget>,
  owned: readonly Frozen<ConfigMap>[],
  expectations: Expectations,
  request: ReconcileRequest,
  options: ChildrenControllerOptions,
): Promise<void> {
  const wanted = parent.spec?.children ?? 0;
  const configMaps = manager.client.resource(configMapKind);
  if (owned.length < wanted) {
    const missing = wanted - owned.length;
    expectations.expectCreations(request.key, missing);
    for (let i = 0; i < missing; i++) {
      try {
        await configMaps.create({
          metadata: {
            generateName: `${request.name}-`,
            namespace: request.namespace,
            ownerReferences: [
              {
                apiVersion: apiVersionOf(widgetKind),
                kind: widgetKind.kind,
                name: request.name,
                uid: parent.metadata?.uid ?? "",
                controller: true,
              },
            ],
          },
        });
      } catch (error) {
        // This create will never be observed: stop waiting for it (and for the ones not tried).
        expectations.lower(request.key, missing - i, 0);
        throw error;
      }
      request.log.info("created a child");
      await options.afterCreate?.();
    }
    return;
  }
  if (owned.length > wanted) {
    const extra = owned.slice(wanted);
    expectations.expectDeletionsOf(request.key, extra.map(objectKey));
    for (const child of extra)
      await configMaps.delete({ namespace: request.namespace as string, name: child.metadata?.name ?? "" });
    return;
  }
  if (parent.status?.phase !== "Ready") {
    await manager.client
      .resource(widgetKind)
      .mergePatch(
        { namespace: request.namespace as string, name: request.name },
        { status: { phase: "Ready" } },
        { subresource: "status" },
      );
  }
}
