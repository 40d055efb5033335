/**
 * The PUTs behind addvolume and removevolume (KubeVirt's AddVolumeOptions / RemoveVolumeOptions),
 * retried as KubeVirt's virtctl retries them: virt-api already reads and writes again after a
 * conflicting write, and answers 409 "the object has been modified" only when that kept failing,
 * so virtctl tries again a few times, a few milliseconds apart, before it gives up.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { explainFailure } from "../api/explain-failure.js";
import { type KubeVirtResource, subresourcePath } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";

export type VolumeSubresource = "addvolume" | "removevolume";

/** KubeVirt's virtctl: 15 attempts. */
export const MAX_VOLUME_ATTEMPTS = 15;
const MODIFIED = "the object has been modified";

/** What the failure messages say was being done: KubeVirt's "error adding volume". */
const ACTION: Readonly<Record<VolumeSubresource, string>> = {
  addvolume: "error adding volume",
  removevolume: "error removing volume",
};

/**
 * Sends the request to the first of `resources` that exists (a 404 moves on to the next), again
 * after a conflict, up to MAX_VOLUME_ATTEMPTS times.
 */
export async function requestVolumeChange(
  api: ApiClient,
  resources: readonly KubeVirtResource[],
  name: string,
  subresource: VolumeSubresource,
  body: Record<string, unknown>,
): Promise<void> {
  for (let attempt = 1; attempt <= MAX_VOLUME_ATTEMPTS; attempt++) {
    const outcome = await sendToFirstExisting(api, resources, name, subresource, body);
    if (outcome === "sent") return;
    if (!isConflict(outcome.error)) {
      throw await explainFailure(api, outcome.error, {
        action: ACTION[subresource],
        resource: outcome.resource,
        name,
      });
    }
    await sleep(attempt * Math.floor(Math.random() * 5));
  }
  throw new CliError(`${ACTION[subresource]} after ${MAX_VOLUME_ATTEMPTS} retries`);
}

async function sendToFirstExisting(
  api: ApiClient,
  resources: readonly KubeVirtResource[],
  name: string,
  subresource: VolumeSubresource,
  body: Record<string, unknown>,
): Promise<"sent" | { resource: KubeVirtResource; error: unknown }> {
  let failure: { resource: KubeVirtResource; error: unknown } | undefined;
  for (const resource of resources) {
    try {
      await api.send("PUT", subresourcePath(api.namespace, resource, name, subresource), body);
      return "sent";
    } catch (error) {
      failure = { resource, error };
      if (!(error instanceof ApiError && error.code === 404)) break;
    }
  }
  if (!failure) throw new Error("requestVolumeChange needs at least one resource");
  return failure;
}

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === 409 && error.message.includes(MODIFIED);
}

/** KubeVirt's virtctl says so before a dry run. */
export const DRY_RUN_NOTICE = "Dry Run execution\n";
