import { decodeCaBundle } from "../aggregation/backend-tls.js";
import type { ServiceReference } from "../aggregation/service-resolver.js";
import { objectAt, objectsAt, stringAt } from "../builtin/json-read.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { nameOf } from "../objects/object-meta.js";

export type WebhookKind = "mutating" | "validating";

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** admissionregistration/v1 RuleWithOperations, with its defaults applied. */
export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: "*" | "Cluster" | "Namespaced";
}

/** Where a webhook is called: a URL, or a Service's endpoint and a path. */
export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference & { path: string };
  /** The PEM bundle its serving certificate is checked against; undefined: the system's roots. */
  caBundlePem?: string;
}

/** One webhook of a Mutating- or ValidatingWebhookConfiguration. */
export interface Webhook {
  kind: WebhookKind;
  name: string;
  configurationName: string;
  clientConfig: WebhookClientConfig;
  rules: WebhookRule[];
  failurePolicy: "Fail" | "Ignore";
  matchPolicy: "Exact" | "Equivalent";
  /** A metav1.LabelSelector; `{}` matches everything. */
  namespaceSelector: JsonValue;
  objectSelector: JsonValue;
  sideEffects: string | undefined;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function ruleOf(rule: JsonObject): WebhookRule {
  const scope = rule.scope === "Cluster" || rule.scope === "Namespaced" ? rule.scope : "*";
  return {
    operations: strings(rule.operations),
    apiGroups: strings(rule.apiGroups),
    apiVersions: strings(rule.apiVersions),
    resources: strings(rule.resources),
    scope,
  };
}

function clientConfigOf(webhook: JsonObject): WebhookClientConfig {
  const config = objectAt(webhook, "clientConfig") ?? {};
  const result: WebhookClientConfig = {};
  const caBundlePem = decodeCaBundle(config.caBundle);
  if (caBundlePem) result.caBundlePem = caBundlePem;
  const url = stringAt(config, "url");
  if (url) result.url = url;
  const service = objectAt(config, "service");
  if (service) {
    result.service = {
      namespace: stringAt(service, "namespace") ?? "",
      name: stringAt(service, "name") ?? "",
      port: typeof service.port === "number" ? service.port : 443,
      path: stringAt(service, "path") ?? "/",
    };
  }
  return result;
}

/**
 * The webhooks of a stored configuration, with admissionregistration/v1's defaults for what the
 * object leaves out (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10, scope `*`).
 */
export function webhooksOf(configuration: JsonObject, kind: WebhookKind): Webhook[] {
  return objectsAt(configuration, "webhooks").map((webhook) => ({
    kind,
    name: stringAt(webhook, "name") ?? "",
    configurationName: nameOf(configuration),
    clientConfig: clientConfigOf(webhook),
    rules: objectsAt(webhook, "rules").map(ruleOf),
    failurePolicy: webhook.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchPolicy: webhook.matchPolicy === "Exact" ? "Exact" : "Equivalent",
    namespaceSelector: isJsonObject(webhook.namespaceSelector) ? webhook.namespaceSelector : {},
    objectSelector: isJsonObject(webhook.objectSelector) ? webhook.objectSelector : {},
    sideEffects: stringAt(webhook, "sideEffects"),
    timeoutSeconds: typeof webhook.timeoutSeconds === "number" ? webhook.timeoutSeconds : 10,
    admissionReviewVersions: strings(webhook.admissionReviewVersions),
  }));
}
