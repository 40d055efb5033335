import {
  type ControllerRevision,
  conflictMessage,
  controllerRevisionOf,
  expandSpec,
  type InstancetypeStatusRef,
  REFERENCE_KIND_NAMES,
  type ReferenceScope,
  type ResolvedReference,
  type ResolvedReferences,
  revisionContentFor,
  sameRevisedObject,
  type VirtualMachineInstanceSpec,
  type VirtualMachineInstancetypeSpec,
  type VirtualMachinePreferenceSpec,
} from "../../api/index.js";
import {
  type Frozen,
  isAlreadyExists,
  type ObjectMeta as KubeObjectMeta,
  mutableCopy,
} from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";
import {
  FIND_FAILURE_REASONS,
  type InstancetypeSources,
  type LiveObject,
  type ReferenceKind,
  scopeOf,
  UnresolvedReference,
} from "./instancetype-sources.js";

/**
 * KubeVirt's instancetype step of the VM controller (`pkg/instancetype/controller/vm`,
 * `revision/store.go`): for each of `spec.instancetype` and `spec.preference`, the status ref
 * follows the matcher (a new name or kind clears the revision it points at); without a revision
 * the live object is copied into a new ControllerRevision owned by the VM; the VMI is then
 * expanded from the revision. So an edited instancetype reaches the VM only once
 * `status.instancetypeRef.controllerRevisionRef` is cleared (or the matcher changes).
 */

export interface SyncedReferences {
  readonly resolved: ResolvedReferences;
  readonly instancetypeRef: InstancetypeStatusRef | undefined;
  readonly preferenceRef: InstancetypeStatusRef | undefined;
}

export type ReferencesOutcome =
  | { readonly kind: "none" }
  | ({ readonly kind: "synced" } & SyncedReferences)
  | { readonly kind: "failed"; readonly reason: string; readonly message: string };

/** The matcher of one kind on a VM spec. */
interface Matcher {
  name?: string;
  kind?: string;
  revisionName?: string;
  inferFromVolume?: string;
  inferFromVolumeFailurePolicy?: "Reject" | "Ignore";
}

export class InstancetypeReferences {
  readonly #sources: InstancetypeSources;

  constructor(sources: InstancetypeSources) {
    this.#sources = sources;
  }

  /** Stores missing revisions and resolves both references; never throws a UnresolvedReference. */
  async sync(vm: Frozen<VirtualMachine>): Promise<ReferencesOutcome> {
    if (vm.spec.instancetype === undefined && vm.spec.preference === undefined) return { kind: "none" };
    try {
      const instancetype = await this.#syncOne(vm, "instancetype", vm.spec.instancetype);
      const preference = await this.#syncOne(vm, "preference", vm.spec.preference);
      return {
        kind: "synced",
        resolved: {
          ...(instancetype
            ? { instancetype: instancetype.resolved as ResolvedReference<VirtualMachineInstancetypeSpec> }
            : {}),
          ...(preference
            ? { preference: preference.resolved as ResolvedReference<VirtualMachinePreferenceSpec> }
            : {}),
        },
        instancetypeRef: instancetype?.ref,
        preferenceRef: preference?.ref,
      };
    } catch (error) {
      if (error instanceof UnresolvedReference)
        return { kind: "failed", reason: error.reason, message: error.message };
      throw error;
    }
  }

  async #syncOne(
    vm: Frozen<VirtualMachine>,
    kind: ReferenceKind,
    matcher: Frozen<Matcher> | undefined,
  ): Promise<{ resolved: ResolvedReference<unknown>; ref: InstancetypeStatusRef } | undefined> {
    if (matcher === undefined) return undefined;
    const scope = scopeOf(kind, matcher.kind);
    const name = matcher.name ?? "";
    if (scope === undefined) {
      const matcherType = kind === "instancetype" ? "InstancetypeMatcher" : "PreferenceMatcher";
      throw new UnresolvedReference(
        FIND_FAILURE_REASONS[kind],
        `got unexpected kind in ${matcherType}: ${matcher.kind ?? ""}`,
      );
    }
    if (matcher.inferFromVolume) {
      throw new UnresolvedReference(
        FIND_FAILURE_REASONS[kind],
        `inferring the ${kind} from volume ${matcher.inferFromVolume} is not supported yet`,
      );
    }
    const current = kind === "instancetype" ? vm.status?.instancetypeRef : vm.status?.preferenceRef;
    const ref = followMatcher(current, matcher, REFERENCE_KIND_NAMES[kind][scope]);
    const namespace = vm.metadata?.namespace ?? "";
    if (!ref.controllerRevisionRef?.name) {
      const live = this.#sources.live(kind, scope, namespace, name);
      if (kind === "instancetype") checkConflicts(vm, name, scope, live);
      const stored = await this.#store(vm, live);
      ref.controllerRevisionRef = { name: stored.metadata?.name ?? "" };
    }
    const spec = await this.#revisedSpec(vm, kind, scope, name, ref.controllerRevisionRef?.name ?? "");
    return { resolved: { name, scope, spec }, ref };
  }

  /** KubeVirt's storeControllerRevision: create, or accept an existing one with the same data. */
  async #store(vm: Frozen<VirtualMachine>, live: LiveObject): Promise<ControllerRevision> {
    const revision = controllerRevisionOf(vm, {
      kind: live.kind,
      metadata: mutableCopy<KubeObjectMeta>(live.object.metadata ?? {}),
      spec: live.object.spec,
    });
    try {
      return await this.#sources.createRevision(revision);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
    const name = revision.metadata?.name ?? "";
    const existing = await this.#sources.revision(revision.metadata?.namespace ?? "", name);
    if (existing === undefined || !sameRevisedObject(mutableCopy<ControllerRevision>(existing), revision)) {
      throw new UnresolvedReference(
        "FailedCreate",
        `error encountered while storing instancetype.kubevirt.io controllerRevisions: found existing ControllerRevision with unexpected data: ${name}`,
      );
    }
    return mutableCopy<ControllerRevision>(existing);
  }

  /** The spec the named revision holds, checked to be one of `kind`. */
  async #revisedSpec(
    vm: Frozen<VirtualMachine>,
    kind: ReferenceKind,
    scope: ReferenceScope,
    name: string,
    revisionName: string,
  ): Promise<unknown> {
    const namespace = vm.metadata?.namespace ?? "";
    const revision = await this.#sources.revision(namespace, revisionName);
    if (revision === undefined) {
      throw new UnresolvedReference(
        FIND_FAILURE_REASONS[kind],
        `controllerrevisions.apps "${revisionName}" not found`,
      );
    }
    const content = revisionContentFor(mutableCopy<ControllerRevision>(revision), kind, scope, name);
    // A revision of another object (the matcher changed under it): use the live object, as KubeVirt does.
    if ("otherObject" in content) return this.#sources.live(kind, scope, namespace, name).object.spec;
    if ("invalid" in content) throw new UnresolvedReference(FIND_FAILURE_REASONS[kind], content.invalid);
    return content.spec;
  }
}

/** KubeVirt's syncStatusWithMatcher: the ref takes the matcher's values; a changed one drops the revision. */
function followMatcher(
  current: Frozen<InstancetypeStatusRef> | undefined,
  matcher: Frozen<Matcher>,
  defaultKind: string,
): InstancetypeStatusRef {
  const ref: InstancetypeStatusRef = current ? mutableCopy<InstancetypeStatusRef>(current) : {};
  let changed = false;
  const kind = matcher.kind || defaultKind;
  if (matcher.name && matcher.name !== ref.name) {
    ref.name = matcher.name;
    changed = true;
  }
  if (kind !== ref.kind) {
    ref.kind = kind;
    changed = true;
  }
  if (changed) delete ref.controllerRevisionRef;
  if (matcher.revisionName && ref.controllerRevisionRef?.name !== matcher.revisionName) {
    ref.controllerRevisionRef = { name: matcher.revisionName };
  }
  return ref;
}

/** The last check before storing (KubeVirt's checkForInstancetypeConflicts): the object may have changed since admission. */
function checkConflicts(
  vm: Frozen<VirtualMachine>,
  name: string,
  scope: ReferenceScope,
  live: LiveObject,
): void {
  const expansion = expandSpec({
    base: "spec.template.spec",
    instancetype: { name, scope, spec: live.object.spec as VirtualMachineInstancetypeSpec },
    spec: mutableCopy<VirtualMachineInstanceSpec>(vm.spec.template.spec ?? { domain: { devices: {} } }),
    annotations: { ...(vm.spec.template.metadata?.annotations ?? {}) },
  });
  if (expansion.conflicts.length > 0) {
    throw new UnresolvedReference(
      "FailedCreate",
      `error encountered while storing instancetype.kubevirt.io controllerRevisions: ${conflictMessage(expansion.conflicts)}`,
    );
  }
}
