import { type Cause, invalid } from "../validation/cause.js";

/**
 * A conflict is the path of a VM field the instancetype also sets (KubeVirt's
 * `pkg/instancetype/conflict`): admission refuses the VM with one cause per path.
 */
export function conflictMessage(paths: readonly string[]): string {
  return `VM field(s) ${paths.join(", ")} conflicts with selected instance type`;
}

export function conflictCauses(paths: readonly string[]): Cause[] {
  return paths.map((path) => invalid(path, conflictMessage([path])));
}
