import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { StatusCause } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { labelSelectorFromObject } from "../selectors/label-selector.js";
import { immutableField, invalidField, notSupportedField } from "./field-errors.js";
import { numberAt, objectAt, stringAt, stringMapAt, valueAt } from "./json-read.js";
import { isEmptySelector } from "./label-selector.js";
import { validatePodSpec } from "./pod-validation.js";

/**
 * The checks shared by Deployments, ReplicaSets and DaemonSets (apps/v1 validation): a non-empty
 * selector that selects the template's labels, a valid template whose pods restart Always, a
 * replica count that is not negative, and a selector that never changes.
 */
function validateWorkload(object: JsonObject, old: JsonObject | undefined, kindWord: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = objectAt(object, "spec");
  const selector = valueAt(spec, "selector");
  const template = objectAt(spec, "template");
  if (selector !== undefined && selector !== null) {
    if (isEmptySelector(selector)) {
      causes.push(invalidField("spec.selector", selector, `empty selector is invalid for ${kindWord}`));
    } else if (template && !selectsTemplate(selector, stringMapAt(template, "metadata", "labels"))) {
      const labels = valueAt(template, "metadata", "labels") ?? null;
      causes.push(
        invalidField("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"),
      );
    }
  }
  const replicas = numberAt(spec, "replicas");
  if (replicas !== undefined && replicas < 0) {
    causes.push(invalidField("spec.replicas", replicas, "must be greater than or equal to 0"));
  }
  if (template) {
    causes.push(...validatePodSpec(valueAt(template, "spec"), "spec.template.spec"));
    const restartPolicy = stringAt(template, "spec", "restartPolicy");
    if (restartPolicy !== undefined && restartPolicy !== "Always") {
      causes.push(notSupportedField("spec.template.spec.restartPolicy", restartPolicy, ["Always"]));
    }
  }
  if (old) {
    const oldSelector = valueAt(old, "spec", "selector");
    if (!jsonEqual(selector, oldSelector)) causes.push(immutableField("spec.selector", selector ?? null));
  }
  return causes;
}

export function validateDeployment(deployment: JsonObject, old: JsonObject | undefined): StatusCause[] {
  return validateWorkload(deployment, old, "deployment");
}

export function validateReplicaSet(replicaSet: JsonObject, old: JsonObject | undefined): StatusCause[] {
  return validateWorkload(replicaSet, old, "deployment");
}

export function validateDaemonSet(daemonSet: JsonObject, old: JsonObject | undefined): StatusCause[] {
  return validateWorkload(daemonSet, old, "daemonset");
}

/** Whether the selector selects the template's labels; a malformed selector is reported by the schema check instead. */
function selectsTemplate(selector: unknown, labels: Record<string, string>): boolean {
  try {
    return labelSelectorFromObject(selector)(labels);
  } catch {
    return true;
  }
}
