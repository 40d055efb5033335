/**
 * `vmi.kubevirt.io/id`: the label by which a Service selects one VMI's launcher pod (KubeVirt's
 * `virtctl expose vm|vmi` writes it as the selector, virt-controller puts it on the pod). Its
 * value is KubeVirt's CalculateVirtualMachineInstanceID (pkg/apimachinery/labels.go), so
 * Services written by KubeVirt's own virtctl select our pods too.
 */
import { createHash } from "node:crypto";

export const VMI_ID_LABEL = "vmi.kubevirt.io/id";

/** A label value may have 63 characters (DNS-1035 label length, as KubeVirt measures it). */
const MAX_ID_LENGTH = 63;
const HASH_LENGTH = 8;

/**
 * The VMI's name when it fits a label value, else its first 54 characters, `-`, and the first 8
 * hex digits of the SHA-1 of the whole name: long names that share a prefix stay apart. SHA-1
 * (not SHA-256 as KubeVirt's other truncations) because pods labelled since KubeVirt 1.7 carry it.
 */
export function vmiIdOf(vmiName: string): string {
  if (vmiName.length <= MAX_ID_LENGTH) return vmiName;
  const hash = createHash("sha1").update(vmiName, "utf8").digest("hex").slice(0, HASH_LENGTH);
  return `${vmiName.slice(0, MAX_ID_LENGTH - HASH_LENGTH - 1)}-${hash}`;
}
