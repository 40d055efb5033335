// The handler's own check of the VMI values it turns into names, paths, XML and QEMU arguments, with
// the rules admission applies (api's validateHostFacingValues). It runs before anything is created
// for the VMI: a VMI stored before a rule existed, or while virt-api's webhook was down, never went
// through admission's check, and the node must not depend on it having done so.
import { type Cause, type VirtualMachineInstance, validateHostFacingValues } from "../../api/index.js";
import { VmiConversionError } from "./conversion-error.js";

/** Throws VmiConversionError("InvalidSpec") naming every field whose value the node cannot take. */
export function refuseUnconfinedValues(vmi: VirtualMachineInstance): void {
  const causes = validateHostFacingValues(vmi);
  if (causes.length === 0) return;
  throw new VmiConversionError("InvalidSpec", causes.map(describeCause).join("; "));
}

function describeCause(cause: Cause): string {
  return cause.message.startsWith(cause.field) ? cause.message : `${cause.field}: ${cause.message}`;
}
