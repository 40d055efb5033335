/**
 * `expand-spec` (GET on a stored VM) and `expand-vm-spec` (PUT of a VM in the body, on a
 * namespace): the VM with its instancetype and preference applied to its template, as its VMI
 * would get them, and no matchers left (KubeVirt's rest/expand.go). A VM in the body is checked
 * against the VM schema first (400 "Object is not a valid VirtualMachine" with the causes). What
 * cannot be expanded (a referenced object that does not exist, a conflict) is a 400 for a VM sent
 * and a 500 for a stored one, as KubeVirt answers.
 */
import {
  type ClusterDefaults,
  conflictMessage,
  expandVirtualMachine,
  INSTANCETYPE_GROUP,
  instancetypeScopeOf,
  preferenceScopeOf,
  REFERENCE_KINDS,
  unexpectedKindMessage,
  VirtualMachineKind,
} from "../../api/index.js";
import type { VirtualMachine } from "../kinds.js";
import { badRequest, internalError, StatusError } from "../status/status-error.js";
import { type ReferenceReader, resolveVmReferences, type VmReferences } from "../webhooks/vm-references.js";

const MATCHER_TYPES = { instancetype: "InstancetypeMatcher", preference: "PreferenceMatcher" } as const;

/** How a failure to expand is answered: 400 for a VM in the body, 500 for a stored one. */
type FailureOf = (message: string) => StatusError;

export const storedVmFailure: FailureOf = (message) => internalError(message);
export const sentVmFailure: FailureOf = (message) => badRequest(message);

export async function expandedVm(
  vm: VirtualMachine,
  reader: ReferenceReader,
  defaults: ClusterDefaults,
  failure: FailureOf,
): Promise<VirtualMachine> {
  // Matchers resolveVmReferences leaves to others would be dropped unexpanded: say so instead.
  for (const reference of ["instancetype", "preference"] as const) {
    const matcher = vm.spec[reference];
    if (matcher === undefined) continue;
    if (matcher.inferFromVolume && !matcher.name)
      throw failure(
        `spec.${reference}.inferFromVolume is resolved when the VM is created: expand the stored VM (virtctl expand --vm)`,
      );
    const scope =
      reference === "instancetype" ? instancetypeScopeOf(matcher.kind) : preferenceScopeOf(matcher.kind);
    if (scope === undefined)
      throw failure(unexpectedKindMessage(MATCHER_TYPES[reference], matcher.kind ?? ""));
    if (!matcher.name) throw failure(`spec.${reference}.name is required`);
  }
  const { resolved, missing, invalid } = await resolveVmReferences(vm, reader);
  const [wrongRevision] = invalid;
  if (wrongRevision !== undefined) throw failure(wrongRevision.message);
  const [first] = missing;
  if (first !== undefined)
    throw failure(`${pluralOf(first)}.${INSTANCETYPE_GROUP} "${first.name}" not found`);
  const expansion = expandVirtualMachine(vm, resolved, defaults);
  if ("conflicts" in expansion) {
    // KubeVirt's Conflicts.Error(): every path in one message.
    throw failure(conflictMessage(expansion.conflicts));
  }
  return expansion.vm;
}

function pluralOf({ reference, scope }: VmReferences["missing"][number]): string {
  return REFERENCE_KINDS[reference][scope === "cluster" ? "cluster" : "namespaced"].plural;
}

/** The body of `expand-vm-spec`: a VirtualMachine, in the request's namespace or none. */
export function vmOfBody(body: unknown, namespace: string): VirtualMachine {
  if (typeof body !== "string" || body.trim() === "") throw badRequest("empty request body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw badRequest(
      `error unmarshalling request body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const causes = VirtualMachineKind.validator.validate(parsed);
  if (causes.length > 0 || !VirtualMachineKind.validator.check(parsed)) {
    throw new StatusError({
      kind: "Status",
      code: 400,
      reason: "BadRequest",
      message: "Object is not a valid VirtualMachine",
      details: {
        causes: causes.map((cause) => ({
          message: cause.message,
          ...(cause.field ? { field: cause.field } : {}),
        })),
      },
    });
  }
  const vm = parsed as VirtualMachine;
  const given = vm.metadata?.namespace;
  if (given && given !== namespace) throw badRequest(`VM namespace must be empty or ${namespace}`);
  return { ...vm, metadata: { ...(vm.metadata ?? {}), namespace } };
}
