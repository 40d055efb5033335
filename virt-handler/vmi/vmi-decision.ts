// What to do about one VMI of this node, decided from what is observed now (pure: the VMI from
// the cache, its domain's state, whether its launcher pod is still there, whether it may run):
// level-based, so the same observation always gives the same decision, whatever happened before.
import { DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, FINALIZERS } from "../../api/index.js";
import { ShutoffReason } from "../../libvirt/index.js";
import { type Frozen, jsonEqual, mutableCopy, setCondition } from "../../runtime/index.js";
import { type DomainFacts, isActive } from "../domain/observed-domain.js";
import type { Vmi } from "../kinds.js";
import {
  type FinalOutcome,
  finalStatus,
  type LauncherReadiness,
  outcomeOfStoppedDomain,
  runningStatus,
} from "./vmi-status.js";

/** The finalizer virt-handler holds on a VMI while its domain may exist (KubeVirt's name). */
export const HANDLER_FINALIZER = FINALIZERS.vmController;

/** Whether the launcher pod still anchors the VM ("gone" also when it is terminating or finished). */
export type LauncherState = "present" | "gone";

/** Whether a VMI may start on this node. */
export type RunPermission =
  | { readonly ok: true; readonly emulation: boolean }
  | { readonly ok: false; readonly reason: string; readonly message: string };

export interface DecisionInput {
  readonly vmi: Frozen<Vmi>;
  /** This VMI's domain (same uid), if there is one. */
  readonly domain: DomainFacts | undefined;
  readonly launcher: LauncherState;
  /** The launcher pod's addresses (status.podIPs): the VM's, when its interface is in the pod. */
  readonly podIPs?: readonly string[];
  /** The launcher pod's Ready condition (its readiness probe is the VMI's). */
  readonly launcherReady?: LauncherReadiness;
  readonly permission: RunPermission;
  /** When an ACPI shutdown of the domain was asked for, if it was. */
  readonly shutdownRequestedAt: number | undefined;
  readonly now: number;
}

export type Decision =
  | { readonly kind: "none" }
  /** Define the domain (unless it is defined and never ran) and start it. */
  | { readonly kind: "start"; readonly emulation: boolean }
  /** Ask the guest to power off (ACPI); look again after `recheckInMs`. */
  | { readonly kind: "shutdown"; readonly recheckInMs: number }
  | { readonly kind: "destroy" }
  | { readonly kind: "wait"; readonly recheckInMs: number }
  /** Write the VMI (status and finalizers) as given. */
  | { readonly kind: "write"; readonly vmi: Vmi }
  /**
   * Remove the domain and the VM's files, and write `vmi` if given. `cleanupFirst`: the write
   * may only happen once they are gone (it drops the finalizer that waits for them); otherwise the
   * write goes first, because it needs what the domain says about how it ended.
   */
  | { readonly kind: "finish"; readonly vmi: Vmi | undefined; readonly cleanupFirst: boolean };

const NONE: Decision = { kind: "none" };

export function decide(input: DecisionInput): Decision {
  const { vmi, domain } = input;
  const phase = vmi.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") {
    if (domain === undefined && !hasFinalizer(vmi)) return NONE;
    return {
      kind: "finish",
      vmi: hasFinalizer(vmi) ? withoutFinalizer(vmi, vmi.status) : undefined,
      cleanupFirst: true,
    };
  }
  if (phase !== "Scheduled" && phase !== "Running") return NONE;
  if (vmi.metadata?.deletionTimestamp || input.launcher === "gone") return decideStop(input);
  if (domain === undefined) return decideWithoutDomain(input);
  if (isActive(domain))
    return writeIfChanged(
      vmi,
      withFinalizer(vmi, runningStatus(vmi, domain, input.now, input.podIPs, input.launcherReady)),
    );
  if (phase === "Scheduled" && domain.reason === ShutoffReason.Unknown) {
    // Defined but never started (the handler stopped between define and start): start it now.
    return input.permission.ok ? { kind: "start", emulation: input.permission.emulation } : refuse(input);
  }
  const ended = finalStatus(vmi, outcomeOfStoppedDomain(domain), input.now);
  return { kind: "finish", vmi: withoutFinalizer(vmi, ended), cleanupFirst: false };
}

function decideWithoutDomain(input: DecisionInput): Decision {
  const { vmi, now } = input;
  if (vmi.status?.phase === "Scheduled") {
    return input.permission.ok ? { kind: "start", emulation: input.permission.emulation } : refuse(input);
  }
  const lost: FinalOutcome = { phase: "Failed", reason: "DomainLost", message: "the VMI's domain vanished" };
  return { kind: "finish", vmi: withoutFinalizer(vmi, finalStatus(vmi, lost, now)), cleanupFirst: true };
}

function refuse(input: DecisionInput): Decision {
  if (input.permission.ok) throw new Error("refuse() called for a VMI that may run");
  return cannotStart(input.vmi, input.permission, input.now);
}

/** The VMI cannot run as specified: it fails with the reason (and its files, if any, go). */
export function cannotStart(
  vmi: Frozen<Vmi>,
  why: { readonly reason: string; readonly message: string },
  now: number,
): Decision {
  const outcome: FinalOutcome = { phase: "Failed", reason: why.reason, message: why.message };
  const status = finalStatus(vmi, outcome, now);
  // As virt-controller reports a spec it cannot render: the Failure condition carries the reason.
  const failure = { type: "Failure", status: "True", reason: why.reason, message: why.message } as const;
  status.conditions = setCondition(status.conditions, failure, now);
  return { kind: "finish", vmi: withoutFinalizer(vmi, status), cleanupFirst: true };
}

/** The VMI was deleted or its launcher pod went away: shut the guest down, then finish. */
function decideStop(input: DecisionInput): Decision {
  const { vmi, domain, now } = input;
  if (domain !== undefined && isActive(domain)) {
    const graceMs = gracePeriodMs(vmi);
    if (input.shutdownRequestedAt === undefined) {
      return graceMs <= 0 ? { kind: "destroy" } : { kind: "shutdown", recheckInMs: graceMs };
    }
    const remaining = input.shutdownRequestedAt + graceMs - now;
    return remaining <= 0 ? { kind: "destroy" } : { kind: "wait", recheckInMs: remaining };
  }
  const ended = finalStatus(vmi, outcomeOfStop(vmi, domain), now);
  return { kind: "finish", vmi: withoutFinalizer(vmi, ended), cleanupFirst: true };
}

/** How a VMI that was stopped on purpose ended. */
function outcomeOfStop(vmi: Frozen<Vmi>, domain: DomainFacts | undefined): FinalOutcome {
  if (!vmi.metadata?.deletionTimestamp) {
    return { phase: "Failed", reason: "LauncherPodGone", message: "the VMI's launcher pod was deleted" };
  }
  if (domain !== undefined) {
    const ended = outcomeOfStoppedDomain(domain);
    // Destroyed by us after the grace period: what the user asked for, not a failure.
    if (ended.phase === "Failed" && domain.reason !== ShutoffReason.Destroyed) return ended;
  }
  if (vmi.status?.phase === "Scheduled" && domain === undefined) {
    return {
      phase: "Failed",
      reason: "DeletedBeforeStart",
      message: "the VMI was deleted before it started",
    };
  }
  return { phase: "Succeeded", reason: "Deleted", message: "the VMI was deleted and its guest stopped" };
}

export function gracePeriodMs(vmi: Frozen<Vmi>): number {
  return (vmi.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS) * 1000;
}

function writeIfChanged(vmi: Frozen<Vmi>, updated: Vmi): Decision {
  // Structural comparison: a real API server may hand back keys in another order than we build them.
  const same =
    jsonEqual(updated.status ?? {}, vmi.status ?? {}) &&
    jsonEqual(updated.metadata?.finalizers ?? [], vmi.metadata?.finalizers ?? []);
  return same ? NONE : { kind: "write", vmi: updated };
}

function hasFinalizer(vmi: Frozen<Vmi>): boolean {
  return vmi.metadata?.finalizers?.includes(HANDLER_FINALIZER) ?? false;
}

/** A copy of the VMI with `status` and the handler's finalizer. */
function withFinalizer(vmi: Frozen<Vmi>, status: Vmi["status"]): Vmi {
  const copy = mutableCopy<Vmi>(vmi);
  copy.status = status;
  copy.metadata ??= {};
  if (!hasFinalizer(vmi)) copy.metadata.finalizers = [...(copy.metadata.finalizers ?? []), HANDLER_FINALIZER];
  return copy;
}

/** A copy of the VMI with `status` and without the handler's finalizer. */
function withoutFinalizer(vmi: Frozen<Vmi>, status: Frozen<Vmi["status"]>): Vmi {
  const copy = mutableCopy<Vmi>(vmi);
  copy.status = mutableCopy<Vmi["status"]>(status);
  copy.metadata ??= {};
  const finalizers = (copy.metadata.finalizers ?? []).filter((name) => name !== HANDLER_FINALIZER);
  if (finalizers.length > 0) copy.metadata.finalizers = finalizers;
  else delete copy.metadata.finalizers;
  return copy;
}
