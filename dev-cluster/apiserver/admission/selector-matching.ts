import { notFound } from "../api-error.js";
import { isEmptySelector } from "../builtin/label-selector.js";
import type { JsonObject } from "../json.js";
import { labelsOf } from "../objects/object-meta.js";
import { labelSelectorFromObject } from "../selectors/label-selector.js";
import { type AdmissionAttributes, isNamespaceResource } from "./admission-attributes.js";
import type { Webhook } from "./webhook-configuration.js";

/** The labels of a stored namespace, or undefined when there is none of that name. */
export type NamespaceLabels = (namespace: string) => Record<string, string> | undefined;

/**
 * admission/plugin/webhook/predicates/namespace.Matcher: cluster-scoped requests (other than
 * for Namespaces) always match; otherwise the selector is matched against the labels of the
 * request's namespace (those of the object itself when a Namespace is created or updated). A
 * namespace that does not exist is a 404.
 */
export function namespaceSelectorMatches(
  webhook: Webhook,
  attributes: AdmissionAttributes,
  namespaceLabels: NamespaceLabels,
): boolean {
  const namespaceRequest = isNamespaceResource(attributes);
  if (attributes.namespace === "" && !namespaceRequest) return true;
  if (isEmptySelector(webhook.namespaceSelector)) return true;
  const matches = labelSelectorFromObject(webhook.namespaceSelector);
  const ownLabels =
    namespaceRequest &&
    attributes.subresource === "" &&
    (attributes.operation === "CREATE" || attributes.operation === "UPDATE") &&
    attributes.object !== undefined;
  if (ownLabels) return matches(labelsOf(attributes.object as JsonObject));
  const labels = namespaceLabels(attributes.namespace);
  if (!labels) throw notFound({ group: "", resource: "namespaces", name: attributes.namespace });
  return matches(labels);
}

/** predicates/object.Matcher: the new or the old object's labels match the selector. */
export function objectSelectorMatches(webhook: Webhook, attributes: AdmissionAttributes): boolean {
  if (isEmptySelector(webhook.objectSelector)) return true;
  const matches = labelSelectorFromObject(webhook.objectSelector);
  return [attributes.object, attributes.oldObject].some(
    (object) => object !== undefined && matches(labelsOf(object)),
  );
}
