import {
  ADMISSION_WEBHOOKS,
  type AdmissionWebhook,
  MUTATING_WEBHOOK_CONFIGURATION,
  VALIDATING_WEBHOOK_CONFIGURATION,
  webhookRuleGroup,
} from "../../api/index.js";
import type { ManagedObject } from "./install-strategy.js";
import { COMPONENT_LABEL, managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";
import { VIRT_API } from "./virt-api-deployment.js";
import { virtApiServiceReference } from "./virt-api-service.js";

const ADMISSION_API_VERSION = "admissionregistration.k8s.io/v1";
/** How long the API server waits for virt-api's answer before failurePolicy decides. */
const TIMEOUT_SECONDS = 10;

/**
 * virt-api's defaulting and validation webhooks for VMs, VMIs, VMI replica sets and the KubeVirt
 * CR, as api/admission lists them (virt-api serves the same list). failurePolicy Fail, as
 * KubeVirt's: a spec nobody validated must not be stored — except for the KubeVirt CR, which
 * virt-api does not own: while virt-api is down (restarting, or a bad image) the CR must stay
 * editable, or nobody could change the imageTag that would repair it (KubeVirt serves that
 * webhook from the operator for the same reason).
 */
export function renderWebhookConfigurations(context: RenderContext): ManagedObject[] {
  return [
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: "MutatingWebhookConfiguration",
      metadata: managedMetadata(context, MUTATING_WEBHOOK_CONFIGURATION, {
        extraLabels: { [COMPONENT_LABEL]: VIRT_API },
      }),
      webhooks: webhooksOf(context, "mutating"),
    },
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: "ValidatingWebhookConfiguration",
      metadata: managedMetadata(context, VALIDATING_WEBHOOK_CONFIGURATION, {
        extraLabels: { [COMPONENT_LABEL]: VIRT_API },
      }),
      webhooks: webhooksOf(context, "validating"),
    },
  ];
}

function webhooksOf(context: RenderContext, type: AdmissionWebhook["type"]): Record<string, unknown>[] {
  return ADMISSION_WEBHOOKS.filter((webhook) => webhook.type === type).map((webhook) => ({
    name: webhook.name,
    clientConfig: {
      service: { ...virtApiServiceReference(context), path: webhook.path },
      caBundle: context.caBundle,
    },
    rules: [
      {
        operations: [...webhook.operations],
        apiGroups: [webhookRuleGroup(webhook).group],
        apiVersions: [webhookRuleGroup(webhook).version],
        resources: [webhook.resource],
      },
    ],
    failurePolicy: webhook.resource === "kubevirts" ? "Ignore" : "Fail",
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    timeoutSeconds: TIMEOUT_SECONDS,
  }));
}
