/**
 * Waits until a VMI runs, as `virtctl console --timeout` does, and knows when waiting is
 * pointless: no VMI and a VM that will not start one by itself (Halted, Manual, a finished Once
 * or RerunOnFailure run) means "not running", at once, not after the timeout.
 */
import { effectiveRunStrategy, type VirtualMachine, type VirtualMachineInstance } from "../../api/index.js";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { explainFailure, notFound } from "../api/explain-failure.js";
import { type KubeVirtResource, objectPath } from "../api/kubevirt-paths.js";

export type Readiness =
  | { readonly state: "running"; readonly vmi: VirtualMachineInstance }
  /** No VMI runs and none will without the user (`virtctl start`). */
  | { readonly state: "stopped"; readonly phase: string | undefined }
  | { readonly state: "timed-out"; readonly phase: string | undefined }
  | { readonly state: "aborted" };

export interface WaitOptions {
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** Resolves when the user gives up (Ctrl+]). */
  readonly abort?: Promise<void>;
  /** Default 1 s. */
  readonly pollMs?: number;
}

export async function waitForRunningVmi(
  api: ApiClient,
  name: string,
  options: WaitOptions,
): Promise<Readiness> {
  let aborted = false;
  void options.abort?.then(() => {
    aborted = true;
  });
  for (;;) {
    const vmi = await readOptional<VirtualMachineInstance>(api, "virtualmachineinstances", name);
    const phase = vmi?.status?.phase;
    if (phase === "Running" && vmi && !vmi.metadata?.deletionTimestamp) return { state: "running", vmi };
    if (!(await mayRunSoon(api, name, vmi))) return { state: "stopped", phase };
    if (aborted) return { state: "aborted" };
    if (Date.now() >= options.deadline) return { state: "timed-out", phase };
    await delayUnless(options.pollMs ?? 1000, options.abort);
    if (aborted) return { state: "aborted" };
  }
}

/** Whether a VMI that is not running now will be, without anyone asking (else "not running"). */
async function mayRunSoon(
  api: ApiClient,
  name: string,
  vmi: VirtualMachineInstance | undefined,
): Promise<boolean> {
  const phase = vmi?.status?.phase;
  const finished = phase === "Succeeded" || phase === "Failed";
  const leaving = vmi?.metadata?.deletionTimestamp != null;
  if (vmi && !finished && !leaving) return true; // Pending, Scheduling, Scheduled: on its way
  const vm = await readOptional<VirtualMachine>(api, "virtualmachines", name);
  if (!vm) {
    if (!vmi) throw await notFound(api, "virtualmachineinstances", name);
    return false; // a VMI of its own, finished or being deleted: nothing brings it back
  }
  if (vm.metadata?.deletionTimestamp) return false;
  if ((vm.status?.stateChangeRequests ?? []).some((request) => request.action === "Start")) return true;
  switch (effectiveRunStrategy(vm.spec)) {
    case "Always":
      return true;
    case "RerunOnFailure":
      return phase !== "Succeeded";
    case "Once":
      return vmi === undefined && !vm.status?.created;
    default:
      return false;
  }
}

/** The object, or undefined when the API server says it does not exist. */
export async function readOptional<T>(
  api: ApiClient,
  resource: KubeVirtResource,
  name: string,
): Promise<T | undefined> {
  try {
    return await api.get<T>(objectPath(api.namespace, resource, name));
  } catch (error) {
    if (error instanceof ApiError && error.code === 404 && error.objectName === name) return undefined;
    throw await explainFailure(api, error, { action: `cannot read ${resource} ${name}`, resource, name });
  }
}

/** Waits `ms`, or less when `abort` resolves first. */
export function delayUnless(ms: number, abort: Promise<void> | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void abort?.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
