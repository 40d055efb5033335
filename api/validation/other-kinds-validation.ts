import { labelsMatch } from "../../runtime/labels/label-selector.js";
import { labelSelectorErrors } from "../core/label-selector.js";
import type { KubeVirtSpec } from "../kubevirt/kubevirt-spec.js";
import type { VirtualMachineInstanceMigrationSpec } from "../migration/virtual-machine-instance-migration.js";
import type { VirtualMachineInstanceReplicaSetSpec } from "../replicaset/virtual-machine-instance-replica-set.js";
import { type Cause, duplicate, invalid, required } from "./cause.js";
import { duplicatePositions } from "./duplicates.js";
import { child, index } from "./field-path.js";
import { validateSupportedConfiguration } from "./unsupported-configuration-validation.js";
import { validateVirtualMachineInstanceSpec } from "./vmi-spec-validation.js";

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;

/** A replica set: a valid selector matching its template's labels, replicas ≥ 0, a valid template. */
export function validateReplicaSetSpec(field: string, spec: VirtualMachineInstanceReplicaSetSpec): Cause[] {
  const causes: Cause[] = [];
  if (spec.replicas !== undefined && spec.replicas < 0) {
    causes.push(
      invalid(child(field, "replicas"), `${child(field, "replicas")} must be greater than or equal to 0`),
    );
  }
  const selectorErrors = labelSelectorErrors(spec.selector);
  for (const error of selectorErrors) {
    causes.push(invalid(index(child(field, "selector", "matchExpressions"), error.index), error.message));
  }
  const metadata = spec.template.metadata;
  const labels = (metadata === null || metadata === undefined ? undefined : metadata.labels) ?? {};
  if (selectorErrors.length === 0 && !labelsMatch(spec.selector, labels)) {
    causes.push(invalid(child(field, "selector"), "selector does not match labels."));
  }
  const templateSpec = spec.template.spec;
  if (templateSpec === undefined) causes.push(required(child(field, "template", "spec")));
  else causes.push(...validateVirtualMachineInstanceSpec(child(field, "template", "spec"), templateSpec));
  return causes;
}

/** A migration names its VMI (unless it only receives a decentralized migration) and has one direction. */
export function validateMigrationSpec(field: string, spec: VirtualMachineInstanceMigrationSpec): Cause[] {
  const causes: Cause[] = [];
  if (!spec.vmiName && spec.receive === undefined) causes.push(required(child(field, "vmiName")));
  if (spec.sendTo !== undefined && spec.receive !== undefined) {
    causes.push(
      invalid(field, `${child(field, "sendTo")} and ${child(field, "receive")} are mutually exclusive`),
    );
  }
  return causes;
}

/** The KubeVirt CR: feature gates not both enabled and disabled, unique update methods, durations, ratios. */
export function validateKubeVirtSpec(field: string, spec: KubeVirtSpec): Cause[] {
  const causes: Cause[] = [];
  const developer = spec.configuration?.developerConfiguration;
  const disabled = new Set(developer?.disabledFeatureGates ?? []);
  (developer?.featureGates ?? []).forEach((gate, position) => {
    if (!disabled.has(gate)) return;
    const gateField = index(
      child(field, "configuration", "developerConfiguration", "featureGates"),
      position,
    );
    causes.push(invalid(gateField, `feature gate ${gate} is both enabled and disabled`));
  });
  const methods = spec.workloadUpdateStrategy?.workloadUpdateMethods ?? [];
  const methodsField = child(field, "workloadUpdateStrategy", "workloadUpdateMethods");
  for (const { at } of duplicatePositions(methods, (method) => method)) {
    causes.push(duplicate(index(methodsField, at), `Duplicate value: "${methods[at] ?? ""}"`));
  }
  causes.push(...validateDurations(field, spec));
  causes.push(...validateSupportedConfiguration(field, spec));
  const ratio = spec.configuration?.additionalGuestMemoryOverheadRatio;
  if (ratio !== undefined && !(Number(ratio) >= 1)) {
    const ratioField = child(field, "configuration", "additionalGuestMemoryOverheadRatio");
    causes.push(invalid(ratioField, `${ratioField} '${ratio}' must be a number greater than or equal to 1`));
  }
  return causes;
}

function validateDurations(field: string, spec: KubeVirtSpec): Cause[] {
  const selfSigned = spec.certificateRotateStrategy?.selfSigned;
  const selfSignedField = child(field, "certificateRotateStrategy", "selfSigned");
  const durations: [string, string | undefined][] = [
    [
      child(field, "workloadUpdateStrategy", "batchEvictionInterval"),
      spec.workloadUpdateStrategy?.batchEvictionInterval,
    ],
    [child(selfSignedField, "caRotateInterval"), selfSigned?.caRotateInterval],
    [child(selfSignedField, "certRotateInterval"), selfSigned?.certRotateInterval],
    [child(selfSignedField, "caOverlapInterval"), selfSigned?.caOverlapInterval],
    [child(selfSignedField, "ca", "duration"), selfSigned?.ca?.duration],
    [child(selfSignedField, "ca", "renewBefore"), selfSigned?.ca?.renewBefore],
    [child(selfSignedField, "server", "duration"), selfSigned?.server?.duration],
    [child(selfSignedField, "server", "renewBefore"), selfSigned?.server?.renewBefore],
  ];
  return durations
    .filter(([, value]) => value !== undefined && !GO_DURATION.test(value))
    .map(([durationField, value]) =>
      invalid(durationField, `${durationField} '${value ?? ""}' is not a duration such as 1m0s or 24h`),
    );
}
