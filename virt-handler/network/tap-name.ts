import { createHash } from "node:crypto";

/**
 * The name of a VM interface's tap on the node, before it moves into the launcher pod: derived
 * from the VMI's uid and the interface, so the converter (which names it in the domain) and a
 * restarted virt-handler (which finds it) agree, and at most 15 characters (IFNAMSIZ).
 */
export function nodeTapName(vmiUid: string, interfaceName: string): string {
  return `kt${createHash("sha256").update(`${vmiUid}/${interfaceName}`).digest("hex").slice(0, 12)}`;
}
