import { jsonEqual } from "../../runtime/objects/json-equality.js";
import type { KubeObject, ObjectMeta } from "../../runtime/objects/kube-object.js";
import { defineKind } from "../../runtime/objects/resource-kind.js";
import { API_VERSION } from "../kind.js";
import { INSTANCETYPE_API_VERSION, INSTANCETYPE_VERSION, REFERENCE_KINDS } from "./instancetype-kinds.js";

/**
 * The copy of an instancetype or preference a VM keeps (KubeVirt's `pkg/instancetype/revision`):
 * an apps/v1 ControllerRevision owned by the VM, named
 * `<vm>-<object>-<version>-<object uid>-<object generation>`, whose `data` is the object as it
 * was (without labels, annotations, finalizers, owners or managed fields). The VM's VMI is
 * expanded from it, so a later edit of the object changes nothing until the VM's revision
 * reference is cleared.
 */

/** apps/v1 ControllerRevision, the fields KubeVirt uses. */
export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision: number;
}

export const controllerRevisionKind = defineKind<ControllerRevision>({
  group: "apps",
  version: "v1",
  kind: "ControllerRevision",
  plural: "controllerrevisions",
  namespaced: true,
});

/** KubeVirt's labels on the revision (`instancetype.kubevirt.io/object-*`). */
export const REVISION_LABELS = {
  generation: "instancetype.kubevirt.io/object-generation",
  kind: "instancetype.kubevirt.io/object-kind",
  name: "instancetype.kubevirt.io/object-name",
  uid: "instancetype.kubevirt.io/object-uid",
  version: "instancetype.kubevirt.io/object-version",
} as const;

/** The object a revision is made of: an instancetype or preference as the API server returned it. */
export interface RevisedObject {
  kind: string;
  metadata?: ObjectMeta;
  spec: unknown;
}

export interface RevisionOwner {
  metadata?: { name?: string; namespace?: string; uid?: string };
}

export function revisionName(vmName: string, object: RevisedObject): string {
  const meta = object.metadata ?? {};
  return `${vmName}-${meta.name ?? ""}-${INSTANCETYPE_VERSION}-${meta.uid ?? ""}-${meta.generation ?? 0}`;
}

export function controllerRevisionOf(vm: RevisionOwner, object: RevisedObject): ControllerRevision {
  const meta = object.metadata ?? {};
  const vmName = vm.metadata?.name ?? "";
  const kept: ObjectMeta = {};
  for (const field of [
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
  ] as const) {
    if (meta[field] !== undefined) Object.assign(kept, { [field]: meta[field] });
  }
  return {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata: {
      name: revisionName(vmName, object),
      namespace: vm.metadata?.namespace ?? "",
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: "VirtualMachine",
          name: vmName,
          uid: vm.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      labels: {
        [REVISION_LABELS.generation]: String(meta.generation ?? 0),
        [REVISION_LABELS.kind]: object.kind,
        [REVISION_LABELS.name]: meta.name ?? "",
        [REVISION_LABELS.uid]: meta.uid ?? "",
        [REVISION_LABELS.version]: INSTANCETYPE_VERSION,
      },
    },
    data: {
      apiVersion: INSTANCETYPE_API_VERSION,
      kind: object.kind,
      metadata: kept,
      spec: structuredClone(object.spec),
    },
    revision: 0,
  };
}

export class RevisionDataError extends Error {
  readonly reason = "InvalidRevisionData";
  constructor(
    readonly revision: string,
    detail: string,
  ) {
    super(`ControllerRevision ${revision}: ${detail}`);
    this.name = "RevisionDataError";
  }
}

/** The kind and spec a revision holds; throws RevisionDataError when it holds no such object. */
export function revisedObjectOf(revision: ControllerRevision): { kind: string; name: string; spec: unknown } {
  const name = revision.metadata?.name ?? "";
  const data = revision.data;
  if (data === null || typeof data !== "object") throw new RevisionDataError(name, "no object in data");
  const { kind, spec, metadata } = data as { kind?: unknown; spec?: unknown; metadata?: { name?: unknown } };
  if (typeof kind !== "string" || spec === null || typeof spec !== "object") {
    throw new RevisionDataError(name, "data is not an instancetype.kubevirt.io object");
  }
  return { kind, name: typeof metadata?.name === "string" ? metadata.name : "", spec };
}

/** Two revisions of one object agree when they hold the same kind and spec (KubeVirt's Compare). */
export function sameRevisedObject(left: ControllerRevision, right: ControllerRevision): boolean {
  const a = revisedObjectOf(left);
  const b = revisedObjectOf(right);
  return a.kind === b.kind && jsonEqual(a.spec, b.spec);
}

/** What a VM's revision holds for one of its matchers (KubeVirt's finder checks the same). */
export type RevisionContent =
  | { readonly spec: unknown }
  /** A revision of another object (the matcher changed under it): the live object applies. */
  | { readonly otherObject: true }
  | { readonly invalid: string };

/**
 * The spec a revision holds for the matcher of `reference` naming `name`, checked: an instancetype
 * revision for an instancetype matcher, in the kind's shape. A revision name comes from the user's
 * VM, so it may name any ControllerRevision of the namespace.
 */
export function revisionContentFor(
  revision: ControllerRevision,
  reference: "instancetype" | "preference",
  scope: "namespaced" | "cluster",
  name: string,
): RevisionContent {
  const labelled = revision.metadata?.labels?.[REVISION_LABELS.name];
  if (labelled !== undefined && labelled !== name) return { otherObject: true };
  const kinds = REFERENCE_KINDS[reference];
  const expected = kinds[scope];
  const invalid = {
    invalid: `ControllerRevision ${revision.metadata?.name ?? ""} does not hold a valid ${expected.kind}`,
  };
  let data: { kind: string; spec: unknown };
  try {
    data = revisedObjectOf(revision);
  } catch {
    return invalid;
  }
  const accepted: string[] = [kinds.namespaced.kind, kinds.cluster.kind];
  if (!accepted.includes(data.kind) || !expected.validator.check({ spec: data.spec })) return invalid;
  return { spec: data.spec };
}
