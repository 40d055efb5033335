/**
 * The VM mutating webhook's inference (KubeVirt's instancetype VM mutator, before its defaults):
 * a matcher with `inferFromVolume` gets its name and kind from the volume's labels
 * (api/instancetype/infer-from-volume.ts). A matcher that also names what inference writes is
 * refused with KubeVirt's causes; a failed inference with KubeVirt's 400 and message.
 */
import { dataVolumeKind, type VirtualMachine } from "../../api/index.js";
import {
  type InferenceSource,
  inferMatchers,
  needsInference,
} from "../../api/instancetype/infer-from-volume.js";
import { inferenceMatcherCauses } from "../../api/validation/vm-references-validation.js";
import { isNotFound, type KubeClient, persistentVolumeClaimKind } from "../../runtime/index.js";
import { type AdmissionRequest, type AdmissionResponse, denied } from "./admission-review.js";

/** GETs the claims and DataVolumes of the VM's namespace through virt-api's client. */
export class ApiInferenceSource implements InferenceSource {
  readonly #client: KubeClient;

  constructor(client: KubeClient) {
    this.#client = client;
  }

  async claimLabels(namespace: string, name: string) {
    const claim = await orUndefined(
      this.#client.resource(persistentVolumeClaimKind).get({ namespace, name }),
    );
    return claim === undefined ? undefined : (claim.metadata?.labels ?? {});
  }

  async dataVolume(namespace: string, name: string) {
    const found = await orUndefined(this.#client.resource(dataVolumeKind).get({ namespace, name }));
    if (found === undefined) return undefined;
    return { labels: found.metadata?.labels ?? {}, spec: found.spec };
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

export type InferenceOutcome = { readonly object: unknown } | { readonly response: AdmissionResponse };

/** The VM as sent, or inferred, or the response refusing it. */
export async function inferVmMatchers(
  admission: AdmissionRequest,
  source: InferenceSource,
): Promise<InferenceOutcome> {
  const object = admission.object;
  if (!isVirtualMachineShaped(object) || !needsInference(object)) return { object };
  const causes = inferenceMatcherCauses("spec", object.spec);
  if (causes.length > 0) return { response: denied(admission.uid, causes) };
  try {
    const namespace = object.metadata?.namespace || admission.namespace || "";
    return { object: await inferMatchers(object, source, namespace) };
  } catch (error) {
    // KubeVirt refuses the VM with the error itself, whatever it is (a failed read included): a
    // VM admitted with its matcher unresolved would be a VM that does not get what it asked for.
    return { response: badRequest(admission.uid, error instanceof Error ? error.message : String(error)) };
  }
}

/** Enough of a VM to look for its volumes; any other shape is the validating webhook's to refuse. */
function isVirtualMachineShaped(object: unknown): object is VirtualMachine {
  if (object === null || typeof object !== "object") return false;
  const spec = (object as { spec?: unknown }).spec;
  return spec !== null && typeof spec === "object";
}

function badRequest(uid: string, message: string): AdmissionResponse {
  return { uid, allowed: false, status: { status: "Failure", code: 400, reason: "BadRequest", message } };
}
