import { isNotFound, type ObjectRef, type ResourceClient } from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";
import { internalError, notFound, VIRTUAL_MACHINE } from "../status/status-error.js";

/** The VM a subresource names: 404 as KubeVirt words it when it does not exist. */
export async function readVm(
  vms: ResourceClient<VirtualMachine>,
  ref: Required<ObjectRef>,
): Promise<VirtualMachine> {
  try {
    return await vms.get(ref);
  } catch (error) {
    if (isNotFound(error)) throw notFound(VIRTUAL_MACHINE, ref.name);
    throw internalError(
      `unable to retrieve vm [${ref.name}]: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
}
