import { isNotFound, type ObjectRef, type ResourceClient } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { internalError, notFound, VIRTUAL_MACHINE_INSTANCE } from "../status/status-error.js";

/** The VMI a subresource names: 404 as KubeVirt words it when it does not exist. */
export async function readVmi(
  vmis: ResourceClient<VirtualMachineInstance>,
  ref: Required<ObjectRef>,
): Promise<VirtualMachineInstance> {
  try {
    return await vmis.get(ref);
  } catch (error) {
    if (isNotFound(error)) throw notFound(VIRTUAL_MACHINE_INSTANCE, ref.name);
    throw internalError(
      `unable to retrieve vmi [${ref.name}]: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
}
