// How a VMI shows that its images cannot be pulled, as KubeVirt shows a launcher pod's kubelet
// failing to pull: the Synchronized condition False with reason ErrImagePull (the registry's error)
// right after a failed attempt, then ImagePullBackOff until the next one. The VM controller turns
// these into the VM's printableStatus. The phase stays Scheduled: the VMI waits, it has not failed.
import {
  type Frozen,
  findCondition,
  mutableCopy,
  removeCondition,
  setCondition,
} from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";
import type { PullFailure } from "./image-pull-backoff.js";

const SYNCHRONIZED = "Synchronized";
export const PULL_REASONS: ReadonlySet<string> = new Set([
  "ErrImagePull",
  "ImagePullBackOff",
  "ErrImageNeverPull",
]);

function withCondition(vmi: Frozen<Vmi>, reason: string, message: string, now: number): Vmi {
  const next = mutableCopy<Vmi>(vmi);
  const status = next.status ?? {};
  status.conditions = setCondition(
    status.conditions,
    { type: SYNCHRONIZED, status: "False", reason, message },
    now,
  );
  next.status = status;
  return next;
}

/** Right after a failed pull: ErrImagePull (or ErrImageNeverPull) with what the registry said. */
export function pullFailedStatus(vmi: Frozen<Vmi>, reason: string, failure: PullFailure, now: number): Vmi {
  return withCondition(vmi, reason, failure.message, now);
}

/**
 * While the back-off lasts: ImagePullBackOff, with the kubelet's message and the last error; undefined
 * when the VMI says so already (nothing to write). A VMI whose image may never be pulled keeps its
 * ErrImageNeverPull.
 */
export function pullBackoffStatus(vmi: Frozen<Vmi>, failure: PullFailure, now: number): Vmi | undefined {
  const current = findCondition(vmi.status?.conditions, SYNCHRONIZED);
  if (current?.reason === "ErrImageNeverPull") return undefined;
  const message = `Back-off pulling image "${failure.image}": ${failure.message}`;
  if (current?.status === "False" && current.reason === "ImagePullBackOff" && current.message === message)
    return undefined;
  return withCondition(vmi, "ImagePullBackOff", message, now);
}

/** The conditions without a pull failure, once the VMI's images were pulled. */
export function withoutPullFailure<C extends { type: string; reason?: string }>(
  conditions: readonly C[] | undefined,
): C[] | undefined {
  const current = conditions?.find((condition) => condition.type === SYNCHRONIZED);
  if (current === undefined || !PULL_REASONS.has(current.reason ?? "")) return conditions as C[] | undefined;
  return removeCondition(conditions, SYNCHRONIZED);
}
