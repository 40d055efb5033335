/**
 * The mutating webhooks: api/'s defaulting (KubeVirt's defaults, with the cluster's settings)
 * expressed as the JSON patch that turns the object sent into the defaulted one. An object
 * defaulting cannot read (the wrong shape) passes unchanged: the validating webhook and the
 * API server's schema reject it with field paths.
 */
import fastJsonPatch from "fast-json-patch";
import {
  defaultKubeVirt,
  defaultVirtualMachine,
  defaultVirtualMachineInstance,
  defaultVirtualMachineInstanceReplicaSet,
  type KubeVirt,
  type VirtualMachine,
  type VirtualMachineInstance,
  type VirtualMachineInstanceReplicaSet,
} from "../../api/index.js";
import type { InferenceSource } from "../../api/instancetype/infer-from-volume.js";
import type { JsonPatchOperation } from "../../runtime/index.js";
import type { ClusterSettings } from "../config/cluster-settings.js";
import { type AdmissionRequest, type AdmissionResponse, patched } from "./admission-review.js";
import { inferVmMatchers } from "./vm-inference.js";

export type Defaulter = (object: unknown, settings: ClusterSettings) => unknown;

export const defaultsOf = {
  virtualMachine: (object: unknown, settings: ClusterSettings) =>
    defaultVirtualMachine(object as VirtualMachine, settings.defaults),
  virtualMachineInstance: (object: unknown, settings: ClusterSettings) =>
    defaultVirtualMachineInstance(object as VirtualMachineInstance, settings.defaults),
  replicaSet: (object: unknown) =>
    defaultVirtualMachineInstanceReplicaSet(object as VirtualMachineInstanceReplicaSet),
  kubeVirt: (object: unknown) => defaultKubeVirt(object as KubeVirt),
} satisfies Record<string, Defaulter>;

/**
 * The JSON patch from the request's object to its defaulted form ([] when defaulting changes
 * nothing). `mutated` is the object after an earlier step (the VM's inferred matchers): it is
 * what gets defaulted, and what is patched to when defaulting cannot read it.
 */
export function defaultingPatch(
  request: AdmissionRequest,
  defaulter: Defaulter,
  settings: ClusterSettings,
  mutated: unknown = request.object,
): JsonPatchOperation[] {
  const original = asJson(request.object);
  const start = asJson(mutated);
  if (original === undefined || start === undefined) return [];
  const defaulted = tryDefault(defaulter, start, settings) ?? start;
  return fastJsonPatch.compare(original as object, asJson(defaulted) as object) as JsonPatchOperation[];
}

/**
 * The VM mutating webhook: the matchers to infer from a volume inferred (or the VM refused, as
 * KubeVirt's instancetype mutator refuses it), then KubeVirt's defaults.
 */
export async function vmMutation(
  request: AdmissionRequest,
  settings: ClusterSettings,
  inference: InferenceSource,
): Promise<AdmissionResponse> {
  const outcome = await inferVmMatchers(request, inference);
  if ("response" in outcome) return outcome.response;
  return patched(request.uid, defaultingPatch(request, defaultsOf.virtualMachine, settings, outcome.object));
}

/**
 * The object as it would be after the mutating webhook: what the validating webhook checks, so
 * that a missing mutating webhook does not turn KubeVirt's defaults into denials.
 */
export function defaultedOrAsSent(object: unknown, defaulter: Defaulter, settings: ClusterSettings): unknown {
  return tryDefault(defaulter, object, settings) ?? object;
}

function tryDefault(defaulter: Defaulter, object: unknown, settings: ClusterSettings): unknown {
  try {
    return defaulter(object, settings);
  } catch {
    // Defaulting walks the spec as the schema describes it; an object of another shape is the
    // validator's to reject (with field paths), not the mutator's to crash on.
    return undefined;
  }
}

/** A plain-JSON copy (no undefined members), so the patch is computed on what travels. */
function asJson(value: unknown): unknown {
  if (value === undefined || value === null || typeof value !== "object") return undefined;
  return JSON.parse(JSON.stringify(value));
}
