import type { JsonObject } from "../json.js";
import {
  childObject,
  defaultString,
  defaultValue,
  objectAt,
  objectsAt,
  stringAt,
  valueAt,
} from "./json-read.js";

const rbacGroup = "rbac.authorization.k8s.io";

/** rbac/v1 SetDefaults_Subject: users and groups belong to the RBAC group, service accounts to core. */
export function defaultRoleBinding(binding: JsonObject): void {
  for (const subject of objectsAt(binding, "subjects")) {
    const kind = stringAt(subject, "kind");
    if (kind === "ServiceAccount") defaultString(subject, "apiGroup", "");
    else if (kind === "User" || kind === "Group") defaultString(subject, "apiGroup", rbacGroup);
  }
}

function defaultServiceReference(clientConfig: JsonObject | undefined): void {
  const service = objectAt(clientConfig, "service");
  if (service) defaultValue(service, "port", 443);
}

/** apiextensions/v1 SetDefaults_CustomResourceDefinition. */
export function defaultCustomResourceDefinition(crd: JsonObject): void {
  const spec = childObject(crd, "spec");
  const names = childObject(spec, "names");
  const kind = stringAt(names, "kind") ?? "";
  defaultString(names, "singular", kind.toLowerCase());
  if (kind !== "") defaultString(names, "listKind", `${kind}List`);
  defaultValue(spec, "conversion", { strategy: "None" });
  defaultServiceReference(objectAt(spec, "conversion", "webhook", "clientConfig"));
  const storedVersions = valueAt(crd, "status", "storedVersions");
  if (!Array.isArray(storedVersions) || storedVersions.length === 0) {
    const storage = objectsAt(spec, "versions").find((version) => version.storage === true);
    const name = stringAt(storage, "name");
    if (name !== undefined) childObject(crd, "status").storedVersions = [name];
  }
}

/** admissionregistration/v1 SetDefaults_{Validating,Mutating}Webhook, SetDefaults_Rule and the service port. */
function defaultWebhooks(configuration: JsonObject, mutating: boolean): void {
  for (const webhook of objectsAt(configuration, "webhooks")) {
    defaultValue(webhook, "failurePolicy", "Fail");
    defaultValue(webhook, "matchPolicy", "Equivalent");
    defaultValue(webhook, "namespaceSelector", {});
    defaultValue(webhook, "objectSelector", {});
    defaultValue(webhook, "timeoutSeconds", 10);
    if (mutating) defaultValue(webhook, "reinvocationPolicy", "Never");
    for (const rule of objectsAt(webhook, "rules")) defaultValue(rule, "scope", "*");
    defaultServiceReference(objectAt(webhook, "clientConfig"));
  }
}

export function defaultMutatingWebhookConfiguration(configuration: JsonObject): void {
  defaultWebhooks(configuration, true);
}

export function defaultValidatingWebhookConfiguration(configuration: JsonObject): void {
  defaultWebhooks(configuration, false);
}

/** apiregistration/v1 SetDefaults_ServiceReference. */
export function defaultApiService(apiService: JsonObject): void {
  const service = objectAt(apiService, "spec", "service");
  if (service) defaultValue(service, "port", 443);
}

/** scheduling/v1 SetDefaults_PriorityClass. */
export function defaultPriorityClass(priorityClass: JsonObject): void {
  defaultString(priorityClass, "preemptionPolicy", "PreemptLowerPriority");
}
