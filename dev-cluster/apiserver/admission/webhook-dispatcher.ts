import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { ServiceResolver } from "../aggregation/service-resolver.js";
import { ApiError, internalError } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { applyJsonPatch } from "../patch/json-patch.js";
import type { ResourceRegistry } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import type { AdmissionAttributes } from "./admission-attributes.js";
import { admissionReview, inVersion, readAdmissionResponse } from "./admission-review.js";
import { invocationType, isExemptFromWebhooks } from "./rule-matching.js";
import {
  type NamespaceLabels,
  namespaceSelectorMatches,
  objectSelectorMatches,
} from "./selector-matching.js";
import { callWebhook } from "./webhook-call.js";
import type { AdmissionOperation, Webhook, WebhookKind } from "./webhook-configuration.js";
import {
  dryRunUnsupported,
  failedCallingWebhook,
  WebhookCallError,
  webhookDenied,
} from "./webhook-errors.js";
import type { WebhookSource } from "./webhook-source.js";

export interface WebhookDispatcherDeps {
  source: WebhookSource;
  resolver: ServiceResolver;
  registry: ResourceRegistry;
  namespaceLabels: NamespaceLabels;
  log: Logger;
}

/** What a round of webhooks leaves: the (possibly patched) object and the warnings for the client. */
export interface MutationOutcome {
  object: JsonObject | undefined;
  warnings: string[];
}

interface Invocation {
  webhook: Webhook;
  /** The version of the resource the webhook is called with. */
  type: ResourceType;
}

/** Side effects a webhook may declare and still be called on a dry run. */
const DRY_RUN_SAFE = new Set(["None", "NoneOnDryRun"]);

/**
 * kube-apiserver's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins: finds the
 * webhooks that apply to a request (rules, namespace and object selectors, matchPolicy), sends
 * each an AdmissionReview, applies mutating webhooks' JSON patches one after the other, then asks
 * the validating webhooks all at once. reinvocationPolicy IfNeeded is not honoured: each mutating
 * webhook is called once.
 */
export class WebhookDispatcher {
  readonly #deps: WebhookDispatcherDeps;

  constructor(deps: WebhookDispatcherDeps) {
    this.#deps = deps;
  }

  /**
   * Whether a webhook's rules could match a request for `type` and one of `operations`. Cheap: a
   * write for which this is false skips admission entirely.
   */
  mayApply(
    target: { type: ResourceType; subresource: string; namespace: string },
    operations: readonly AdmissionOperation[],
  ): boolean {
    if (isExemptFromWebhooks(target.type)) return false;
    const webhooks = [...this.#deps.source.webhooks("mutating"), ...this.#deps.source.webhooks("validating")];
    return operations.some((operation) =>
      webhooks.some((webhook) => invocationType(webhook, { ...target, operation }, this.#deps.registry)),
    );
  }

  /** Runs the mutating webhooks in order; each sees the object as the previous one left it. */
  async mutate(attributes: AdmissionAttributes): Promise<MutationOutcome> {
    const warnings: string[] = [];
    let current = attributes;
    for (const webhook of this.#deps.source.webhooks("mutating")) {
      const invocation = this.#invocation(webhook, current);
      if (!invocation) continue;
      const object = await this.#call(invocation, current, warnings);
      if (object) current = { ...current, object };
    }
    return { object: current.object, warnings };
  }

  /** Runs the validating webhooks in parallel; the first denial (in webhook order) fails the request. */
  async validate(attributes: AdmissionAttributes): Promise<string[]> {
    const invocations = this.#deps.source
      .webhooks("validating")
      .map((webhook) => this.#invocation(webhook, attributes))
      .filter((invocation): invocation is Invocation => invocation !== undefined);
    const warnings = invocations.map((): string[] => []);
    const results = await Promise.allSettled(
      invocations.map((invocation, index) => this.#call(invocation, attributes, warnings[index] ?? [])),
    );
    const failure = results.find((result) => result.status === "rejected");
    if (failure) throw (failure as PromiseRejectedResult).reason;
    return warnings.flat();
  }

  #invocation(webhook: Webhook, attributes: AdmissionAttributes): Invocation | undefined {
    if (isExemptFromWebhooks(attributes.type)) return undefined;
    const type = invocationType(webhook, attributes, this.#deps.registry);
    if (!type) return undefined;
    if (!namespaceSelectorMatches(webhook, attributes, this.#deps.namespaceLabels)) return undefined;
    if (!objectSelectorMatches(webhook, attributes)) return undefined;
    return { webhook, type };
  }

  /** Calls one webhook; returns the patched object (in the request's version) when it sent a patch. */
  async #call(
    invocation: Invocation,
    attributes: AdmissionAttributes,
    warnings: string[],
  ): Promise<JsonObject | undefined> {
    const { webhook, type } = invocation;
    if (attributes.dryRun && !DRY_RUN_SAFE.has(webhook.sideEffects ?? ""))
      throw dryRunUnsupported(webhook.name);
    let response: ReturnType<typeof readAdmissionResponse>;
    try {
      if (!webhook.admissionReviewVersions.includes("v1")) {
        throw new WebhookCallError("webhook does not accept known AdmissionReview versions (v1)");
      }
      const uid = randomUUID();
      const body = await callWebhook(webhook, admissionReview(uid, attributes, type), this.#deps.resolver);
      response = readAdmissionResponse(body, uid, webhook.kind === "mutating");
    } catch (error) {
      const callError =
        error instanceof WebhookCallError
          ? error
          : new WebhookCallError((error as Error).message, { cause: error });
      if (webhook.failurePolicy === "Ignore") {
        this.#deps.log.warn(
          { err: callError, webhook: webhook.name },
          "failed calling webhook, failing open",
        );
        return undefined;
      }
      throw failedCallingWebhook(webhook.name, callError);
    }
    warnings.push(...response.warnings);
    if (!response.allowed) throw webhookDenied(webhook.name, response.status);
    if (response.patch === undefined || (Array.isArray(response.patch) && response.patch.length === 0)) {
      return undefined;
    }
    return this.#patched(webhook.kind, webhook.name, attributes, type, response.patch);
  }

  #patched(
    kind: WebhookKind,
    webhookName: string,
    attributes: AdmissionAttributes,
    type: ResourceType,
    patch: unknown,
  ): JsonObject {
    const object = inVersion(attributes.object, type);
    if (kind !== "mutating" || !object) {
      throw internalError(
        `Internal error occurred: admission webhook "${webhookName}" attempted to modify the object, which is not supported for this operation`,
      );
    }
    let patched: JsonObject;
    try {
      patched = applyJsonPatch(object, patch);
    } catch (error) {
      const why = error instanceof ApiError || error instanceof Error ? error.message : String(error);
      throw internalError(`Internal error occurred: ${why}`, error);
    }
    if (!isJsonObject(patched.metadata))
      throw internalError("Internal error occurred: the patched object has no metadata");
    return inVersion(patched, attributes.type) as JsonObject;
  }
}
