import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import {
  type Frozen,
  formatLabelSelector,
  type LabelMatcher,
  LabelSelectorError,
  labelMatcherFromObject,
  type WireLabelSelector,
} from "../../runtime/index.js";

/** A replica set's selector, once it is known to be one the controller may act on. */
export interface UsableSelector {
  kind: "usable";
  matches: LabelMatcher;
  /** The text form (`key=value,...`): status.labelSelector, which the scale subresource reports. */
  text: string;
}

/** Why the controller leaves a replica set alone (KubeVirt logs it and does not requeue). */
export interface UnusableSelector {
  kind: "unusable";
  reason: string;
}

/**
 * KubeVirt's checks before a replica set is acted on: a template with labels, a selector that
 * parses, and a selector that selects the template's labels (otherwise every VMI it made would be
 * an orphan it cannot see, and it would create without end). virt-api's validation refuses such
 * replica sets; this guards the controller against those stored without it.
 */
export function selectorOf(
  replicaSet: Frozen<StoredVirtualMachineInstanceReplicaSet>,
): UsableSelector | UnusableSelector {
  const labels = replicaSet.spec.template.metadata?.labels ?? {};
  if (Object.keys(labels).length === 0) {
    return {
      kind: "unusable",
      reason: "spec.template.metadata.labels is empty: the selector can select none of its VMIs",
    };
  }
  let matches: LabelMatcher;
  try {
    matches = labelMatcherFromObject(replicaSet.spec.selector);
  } catch (error) {
    if (!(error instanceof LabelSelectorError)) throw error;
    return { kind: "unusable", reason: `spec.selector is invalid: ${error.message}` };
  }
  if (!matches(labels)) {
    return { kind: "unusable", reason: "spec.selector does not match the labels of spec.template.metadata" };
  }
  return {
    kind: "usable",
    matches,
    text: formatLabelSelector(replicaSet.spec.selector as WireLabelSelector),
  };
}
