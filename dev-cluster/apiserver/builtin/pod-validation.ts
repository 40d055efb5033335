import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { StatusCause } from "../api-error.js";
import { cloneJson, type JsonObject, type JsonValue } from "../json.js";
import {
  childPath,
  duplicateField,
  forbiddenField,
  indexPath,
  invalidField,
  requiredField,
} from "./field-errors.js";
import { numberAt, objectAt, objectsAt, stringAt, valueAt } from "./json-read.js";
import { dnsLabelProblems } from "./name-validation.js";

/**
 * The pod checks kubectl users run into most (from ValidatePodSpec / ValidatePodUpdate): at least
 * one container, every container named (unique DNS labels) and with an image, and the
 * immutability of a running pod's spec.
 */
export function validatePodSpec(spec: JsonValue | undefined, base: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const containersPath = childPath(base, "containers");
  if (objectsAt(spec, "containers").length === 0) causes.push(requiredField(containersPath));
  const seenNames = new Set<string>();
  for (const list of ["initContainers", "containers"]) {
    objectsAt(spec, list).forEach((container, index) => {
      causes.push(...validateContainer(container, indexPath(childPath(base, list), index), seenNames));
    });
  }
  return causes;
}

function validateContainer(container: JsonObject, path: string, seenNames: Set<string>): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = stringAt(container, "name") ?? "";
  const namePath = childPath(path, "name");
  if (name === "") causes.push(requiredField(namePath));
  else if (seenNames.has(name)) causes.push(duplicateField(namePath, name));
  else causes.push(...dnsLabelProblems(name).map((problem) => invalidField(namePath, name, problem)));
  seenNames.add(name);
  if ((stringAt(container, "image") ?? "") === "") causes.push(requiredField(childPath(path, "image")));
  return causes;
}

/** Pods (not templates) also reject images with surrounding whitespace. */
export function validatePodImages(spec: JsonValue | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const list of ["initContainers", "containers"]) {
    objectsAt(spec, list).forEach((container, index) => {
      const image = stringAt(container, "image") ?? "";
      if (image !== image.trim()) {
        causes.push(
          invalidField(`spec.${list}[${index}].image`, image, "must not have leading or trailing whitespace"),
        );
      }
    });
  }
  return causes;
}

const podUpdateMessage =
  "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/** Copies the images of `from`'s containers onto `to`'s containers with the same index. */
function copyImages(to: JsonValue | undefined, from: JsonValue | undefined, list: string): void {
  const targets = objectsAt(to, list);
  const sources = objectsAt(from, list);
  targets.forEach((container, index) => {
    const source = sources[index];
    if (source && source.image !== undefined) container.image = source.image;
    else delete container.image;
  });
}

function onlyAddsTolerations(spec: JsonValue | undefined, oldSpec: JsonValue | undefined): boolean {
  const current = objectsAt(spec, "tolerations");
  return objectsAt(oldSpec, "tolerations").every((old) =>
    current.some((toleration) => jsonEqual(old, toleration)),
  );
}

/** ValidatePodUpdate's spec rule: everything but the mutable fields must stay as it was. */
export function validatePodUpdate(pod: JsonObject, old: JsonObject): StatusCause[] {
  const spec = objectAt(pod, "spec") ?? {};
  const oldSpec = objectAt(old, "spec") ?? {};
  const causes: StatusCause[] = [];
  if (!onlyAddsTolerations(spec, oldSpec)) {
    causes.push(
      forbiddenField(
        "spec.tolerations",
        "existing toleration can not be modified except its tolerationSeconds",
      ),
    );
  }
  const munged = cloneJson(spec);
  copyImages(munged, oldSpec, "containers");
  copyImages(munged, oldSpec, "initContainers");
  for (const field of ["activeDeadlineSeconds", "tolerations"]) {
    const oldValue = valueAt(oldSpec, field);
    if (oldValue === undefined) delete munged[field];
    else munged[field] = oldValue;
  }
  const oldGrace = numberAt(oldSpec, "terminationGracePeriodSeconds");
  if (oldGrace !== undefined && oldGrace < 0 && numberAt(spec, "terminationGracePeriodSeconds") === 1) {
    munged.terminationGracePeriodSeconds = oldGrace;
  }
  if (!jsonEqual(munged, oldSpec)) causes.push(forbiddenField("spec", podUpdateMessage));
  return causes;
}

export function validatePod(pod: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const spec = valueAt(pod, "spec");
  return [
    ...validatePodSpec(spec, "spec"),
    ...validatePodImages(spec),
    ...(old ? validatePodUpdate(pod, old) : []),
  ];
}
