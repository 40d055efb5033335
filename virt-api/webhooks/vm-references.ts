/**
 * The VM admitter's look at what a VM references (KubeVirt's vms-admitter ApplyToVM): the
 * instancetype and preference as the VM would get them — its stored ControllerRevision when it
 * has one, else the live object — and then api/'s rules: conflicts with the template (KubeVirt's
 * message, one cause per field path), the preference's requirements. An object that does not
 * exist yet is no reason to refuse the VM (KubeVirt only logs it): the VM waits for it.
 */
import type { Logger } from "pino";
import {
  type Cause,
  type ControllerRevision,
  clusterInstancetypeKind,
  clusterPreferenceKind,
  controllerRevisionKind,
  instancetypeKind,
  instancetypeScopeOf,
  preferenceKind,
  preferenceScopeOf,
  type ReferenceScope,
  type ResolvedReferences,
  revisionContentFor,
  type VirtualMachineInstancetypeSpec,
  type VirtualMachinePreferenceSpec,
  validateAgainstReferences,
} from "../../api/index.js";
import { isNotFound, type KubeClient } from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";

export type Reference = "instancetype" | "preference";

/** Reads what a VM references; undefined when it does not exist. */
export interface ReferenceReader {
  spec(reference: Reference, scope: ReferenceScope, namespace: string, name: string): Promise<unknown>;
  /** A ControllerRevision of the namespace, as stored; undefined when there is none. */
  revision(namespace: string, name: string): Promise<ControllerRevision | undefined>;
}

/** GETs through virt-api's client (a VM admission is rare enough not to need informers). */
export class ApiReferenceReader implements ReferenceReader {
  readonly #client: KubeClient;

  constructor(client: KubeClient) {
    this.#client = client;
  }

  async spec(reference: Reference, scope: ReferenceScope, namespace: string, name: string): Promise<unknown> {
    const ref = scope === "cluster" ? { name } : { namespace, name };
    const client = this.#client;
    const read: Promise<{ spec: unknown }> =
      reference === "instancetype"
        ? scope === "cluster"
          ? client.resource(clusterInstancetypeKind).get(ref)
          : client.resource(instancetypeKind).get(ref)
        : scope === "cluster"
          ? client.resource(clusterPreferenceKind).get(ref)
          : client.resource(preferenceKind).get(ref);
    return (await orUndefined(read))?.spec;
  }

  async revision(namespace: string, name: string): Promise<ControllerRevision | undefined> {
    return orUndefined(this.#client.resource(controllerRevisionKind).get({ namespace, name }));
  }
}

async function orUndefined<T>(pending: Promise<T>): Promise<T | undefined> {
  try {
    return await pending;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** What a VM references, as far as it exists; `missing` names what does not (yet). */
export interface VmReferences {
  readonly resolved: ResolvedReferences;
  readonly missing: readonly {
    readonly reference: Reference;
    readonly scope: ReferenceScope;
    readonly name: string;
  }[];
  /** Revisions named for a matcher that hold something else: why, per matcher. */
  readonly invalid: readonly { readonly reference: Reference; readonly message: string }[];
}

/**
 * The instancetype and preference as the VM would get them: its stored ControllerRevision when
 * it has one (named by the matcher or recorded in its status for the same name), else the live
 * object. A matcher still to infer, or of a kind the matcher rule refuses, is left out.
 */
export async function resolveVmReferences(
  vm: VirtualMachine,
  reader: ReferenceReader,
): Promise<VmReferences> {
  const namespace = vm.metadata?.namespace ?? "";
  const resolved: {
    instancetype?: ResolvedReferences["instancetype"];
    preference?: ResolvedReferences["preference"];
  } = {};
  const missing: VmReferences["missing"][number][] = [];
  const invalid: VmReferences["invalid"][number][] = [];
  for (const reference of ["instancetype", "preference"] as const) {
    const matcher = vm.spec[reference];
    if (matcher === undefined || !matcher.name || matcher.inferFromVolume) continue;
    const scope =
      reference === "instancetype" ? instancetypeScopeOf(matcher.kind) : preferenceScopeOf(matcher.kind);
    if (scope === undefined) continue; // the matcher rule refuses it
    const statusRef = reference === "instancetype" ? vm.status?.instancetypeRef : vm.status?.preferenceRef;
    const revisionName =
      matcher.revisionName ||
      (statusRef?.name === matcher.name ? statusRef?.controllerRevisionRef?.name : undefined);
    const revision = revisionName ? await reader.revision(namespace, revisionName) : undefined;
    const content = revision && revisionContentFor(revision, reference, scope, matcher.name);
    if (content !== undefined && "invalid" in content) {
      invalid.push({ reference, message: content.invalid });
      continue;
    }
    const spec =
      content !== undefined && "spec" in content
        ? content.spec
        : await reader.spec(reference, scope, namespace, matcher.name);
    if (spec === undefined) {
      missing.push({ reference, scope, name: matcher.name });
    } else if (reference === "instancetype") {
      resolved.instancetype = { name: matcher.name, scope, spec: spec as VirtualMachineInstancetypeSpec };
    } else {
      resolved.preference = { name: matcher.name, scope, spec: spec as VirtualMachinePreferenceSpec };
    }
  }
  return { resolved, missing, invalid };
}

/** The causes to refuse a (defaulted) VM with for what it references; [] when none or not found. */
export async function vmReferenceCauses(
  vm: VirtualMachine,
  reader: ReferenceReader,
  log: Logger,
): Promise<Cause[]> {
  const { resolved, missing, invalid } = await resolveVmReferences(vm, reader);
  const revisionCauses = invalid.map(
    ({ reference, message }) =>
      ({ reason: "FieldValueInvalid", field: `spec.${reference}.revisionName`, message }) satisfies Cause,
  );
  for (const { reference, name } of missing) {
    log.warn(
      { namespace: vm.metadata?.namespace, vm: vm.metadata?.name, [reference]: name },
      `the VM's ${reference} does not exist (yet)`,
    );
  }
  if (resolved.instancetype === undefined && resolved.preference === undefined) return revisionCauses;
  return [...revisionCauses, ...validateAgainstReferences("spec", vm.spec, resolved)];
}
