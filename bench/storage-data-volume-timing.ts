// How long a DataVolume takes, seen on this host's clock: from the moment its creation was asked for
// (or the VM's that owns it) to the first look that shows it Succeeded; and the importer's own part,
// from the first look that shows its container running (on the importer pod, `importer-<name>`,
// or as the DataVolume's Running=True condition, whichever comes first) to Succeeded. Looks every
// 100 ms; a short import can run between two looks of the DataVolume, so the pod is looked at too.
// The pod's own terminated.startedAt → finishedAt (whole seconds) is kept when a look caught it.
import type { StoredDataVolume } from "../api/index.js";
import { dataVolumeKind } from "../api/index.js";
import { isNotFound, type KubeClient } from "../runtime/index.js";
import { type Pod, podKind } from "../test/e2e/testing/kinds.js";
import { pollUntil } from "../test/e2e/testing/poll.js";

export interface DataVolumeTiming {
  /** Creation asked → Succeeded seen, ms. */
  readonly toSucceededMs: number;
  /** The importer's container first seen running → Succeeded seen, ms. */
  readonly importerMs: number | undefined;
  /** The importer container's terminated.finishedAt − startedAt, ms (whole seconds each). */
  readonly importerByPodTimestampsMs: number | undefined;
  readonly dataVolume: StoredDataVolume;
}

const LOOK_INTERVAL_MS = 100;

async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function importerRunning(dv: StoredDataVolume | undefined, pod: Pod | undefined): boolean {
  const condition = dv?.status?.conditions?.find((c) => c.type === "Running");
  const state = pod?.status?.containerStatuses?.[0]?.state;
  return condition?.status === "True" || state?.running !== undefined || state?.terminated !== undefined;
}

export async function timeDataVolume(
  client: KubeClient,
  target: { namespace: string; name: string },
  startedAt: number,
  timeoutMs: number,
): Promise<DataVolumeTiming> {
  const importer = { namespace: target.namespace, name: `importer-${target.name}` };
  let importerSeenAt: number | undefined;
  let podTimestampsMs: number | undefined;
  let last: StoredDataVolume | undefined;
  const succeededAt = await pollUntil(
    `DataVolume ${target.namespace}/${target.name} to be Succeeded`,
    async () => {
      const [dv, pod] = await Promise.all([
        orUndefined(client.resource(dataVolumeKind).get(target)),
        orUndefined(client.resource(podKind).get(importer)),
      ]);
      last = dv;
      const running = dv?.status?.conditions?.find((c) => c.type === "Running");
      if (running?.reason === "Error") {
        throw new Error(`the importer of DataVolume ${target.name} failed: ${running.message ?? ""}`);
      }
      if (importerSeenAt === undefined && importerRunning(dv, pod)) importerSeenAt = Date.now();
      const terminated = pod?.status?.containerStatuses?.[0]?.state?.terminated;
      if (terminated?.exitCode === 0 && terminated.startedAt && terminated.finishedAt) {
        podTimestampsMs =
          Date.parse(String(terminated.finishedAt)) - Date.parse(String(terminated.startedAt));
      }
      return dv?.status?.phase === "Succeeded" ? Date.now() : undefined;
    },
    { timeoutMs, intervalMs: LOOK_INTERVAL_MS, lastSeen: () => JSON.stringify(last?.status) },
  );
  if (!last) throw new Error(`DataVolume ${target.name} went away`);
  return {
    toSucceededMs: succeededAt - startedAt,
    importerMs: importerSeenAt === undefined ? undefined : succeededAt - importerSeenAt,
    importerByPodTimestampsMs: podTimestampsMs,
    dataVolume: last,
  };
}
