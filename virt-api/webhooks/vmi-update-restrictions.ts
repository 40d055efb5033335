/**
 * What only KubeVirt may change on a VMI, as KubeVirt's VMI update admitter has it: its spec once
 * created (a running VM was started from it; changes go through subresources), and the reserved
 * labels virt-handler and virt-controller find VMIs and launcher pods by. A user who could set
 * `kubevirt.io/nodeName` would hand a VMI to a node past the scheduler and virt-controller.
 */
import { type Cause, isKubeVirtServiceAccount, LABELS } from "../../api/index.js";
import { jsonEqual } from "../../runtime/index.js";
import type { AdmissionRequest } from "./admission-review.js";

const RESERVED_LABELS: readonly string[] = [
  LABELS.createdBy,
  LABELS.nodeName,
  LABELS.migrationJob,
  LABELS.migrationTargetNodeName,
];

export function vmiRestrictionCauses(request: AdmissionRequest, installNamespace: string): Cause[] {
  if (isKubeVirtServiceAccount(request.userInfo?.username, installNamespace)) return [];
  const causes: Cause[] = [];
  if (request.operation === "UPDATE" && !jsonEqual(specOf(request.object), specOf(request.oldObject))) {
    causes.push({
      reason: "FieldValueNotSupported",
      message: "update of VMI object is restricted",
      field: "spec",
    });
  }
  const reservedBefore = request.operation === "UPDATE" ? reservedLabelsOf(request.oldObject) : {};
  if (!jsonEqual(reservedLabelsOf(request.object), reservedBefore)) {
    causes.push({
      reason: "FieldValueNotSupported",
      message: "modification of the following reserved kubevirt.io/ labels on a VMI object is prohibited",
      field: "metadata.labels",
    });
  }
  return causes;
}

function specOf(object: unknown): unknown {
  return object && typeof object === "object" ? (object as { spec?: unknown }).spec : undefined;
}

function reservedLabelsOf(object: unknown): Record<string, string> {
  const labels =
    object && typeof object === "object"
      ? (object as { metadata?: { labels?: Record<string, string> } }).metadata?.labels
      : undefined;
  return Object.fromEntries(
    RESERVED_LABELS.flatMap((key) => (labels?.[key] === undefined ? [] : [[key, labels[key]]])),
  );
}
