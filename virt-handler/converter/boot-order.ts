// Boot orders of disks and interfaces, as libvirt takes them.
import { VmiConversionError } from "./conversion-error.js";

/** A positive integer (admission checks it; a VMI stored before that, or written around it, is checked here). */
export function bootOrderOf(device: string, order: number): number {
  if (!Number.isSafeInteger(order) || order < 1) {
    throw new VmiConversionError("InvalidSpec", `${device}: bootOrder ${order} is not a positive integer`);
  }
  return order;
}
