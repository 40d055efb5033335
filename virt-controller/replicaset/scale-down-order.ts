import { type Frozen, parseWireTime } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { phaseOf } from "../vmi-phase.js";
import { isReady } from "./replica-vmis.js";

type Vmi = Frozen<VirtualMachineInstance>;

/**
 * 0: not running yet (Pending, Scheduling, Scheduled); 1: migrating; 2: running but not Ready;
 * 3: Ready. Lower ranks go first: KubeVirt deletes in cache order and notes "not yet running <
 * migrating < other" as the order it means to have; Ready last keeps serving VMIs serving.
 */
function rank(vmi: Vmi): number {
  if (phaseOf(vmi) !== "Running") return 0;
  const migration = vmi.status?.migrationState;
  if (migration && migration.completed !== true) return 1;
  return isReady(vmi) ? 3 : 2;
}

function createdAtMs(vmi: Vmi): number {
  return parseWireTime(vmi.metadata?.creationTimestamp) ?? 0;
}

/**
 * The active VMIs in the order a scale-down deletes them: by rank (above), then the newest first
 * (the ones that ran longest stay, as Kubernetes' ReplicaSets keep them), then by name, descending,
 * so that VMIs created in the same second go in an order the tests can predict.
 */
export function inDeletionOrder(vmis: readonly Vmi[]): Vmi[] {
  return [...vmis].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    const byAge = createdAtMs(b) - createdAtMs(a);
    if (byAge !== 0) return byAge;
    const [nameA, nameB] = [a.metadata?.name ?? "", b.metadata?.name ?? ""];
    return nameA < nameB ? 1 : nameA > nameB ? -1 : 0;
  });
}
