import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Clock, sleep } from "../../../runtime/index.js";
import type { CachedPod } from "../kinds.js";
import { podLogDir } from "../logs/log-paths.js";
import { isContainerWrapper, signalGroup } from "../process/container-process.js";
import { findProcesses, isSameProcessAlive, readProcStat } from "../process/proc-stat.js";
import type { PodRecord } from "../state/pod-record.js";
import { PodWorker } from "./pod-worker.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface AdoptionReport {
  /** Pods of the previous run carried on, with the processes still running. */
  adoptedPods: number;
  adoptedProcesses: number;
  /** Processes ended because their pods are gone (or were never recorded). */
  endedProcesses: number;
  /** Network namespaces and veths removed. */
  removedNetworks: string[];
}

/** How long processes of pods that are gone get between SIGTERM and SIGKILL at start-up. */
const orphanGraceMs = 2000;

/**
 * What a restarted agent does before it starts anything: takes over the pods of its previous run
 * that are still bound to this node (their live processes, same pid and start time, are adopted,
 * not restarted), ends the processes of pods that are gone and of wrappers it has no record of,
 * and removes the networks and directories nobody owns any more.
 */
export async function adoptPreviousRun(
  deps: WorkerDeps,
  nodeName: string,
  pods: readonly CachedPod[],
): Promise<{ workers: PodWorker[]; report: AdoptionReport }> {
  const byUid = new Map(pods.map((pod) => [pod.metadata?.uid ?? "", pod]));
  const workers: PodWorker[] = [];
  const orphans: PodRecord[] = [];
  for (const record of deps.store.loadAll()) {
    const pod = byUid.get(record.uid);
    if (pod && pod.spec?.nodeName === nodeName) workers.push(await PodWorker.adopt(deps, record, pod));
    else orphans.push(record);
  }
  let endedProcesses = await endProcessGroups(orphanGroups(orphans), deps.clock);
  const adoptedGroups = new Set(workers.flatMap((worker) => worker.processGroups()));
  const strayGroups = findProcesses((argv) => isContainerWrapper(argv, deps.store.podsDir))
    .map((pid) => readProcStat(pid))
    .filter((stat) => stat !== undefined && !adoptedGroups.has(stat.processGroup))
    .map((stat) => stat?.processGroup ?? 0);
  endedProcesses += await endProcessGroups(new Set(strayGroups), deps.clock);
  for (const record of orphans) {
    deps.store.remove(record.uid);
    rmSync(podLogDir(deps.logsRoot, record), { recursive: true, force: true });
  }
  const kept = new Set(workers.map((worker) => worker.uid));
  const removedNetworks = await deps.network.removeLeftovers(kept);
  removeStrayDirectories(deps, kept);
  deps.log.info(
    { adoptedPods: workers.length, endedProcesses, removedNetworks },
    "took over what the previous run left",
  );
  return {
    workers,
    report: {
      adoptedPods: workers.length,
      adoptedProcesses: adoptedGroups.size,
      endedProcesses,
      removedNetworks,
    },
  };
}

/** Process groups of the recorded processes that still run (same pid and start time). */
function orphanGroups(records: readonly PodRecord[]): Set<number> {
  const groups = new Set<number>();
  for (const record of records) {
    for (const container of record.containers) {
      const process = container.process;
      if (process && isSameProcessAlive(process.pid, process.startTicks)) groups.add(process.pid);
    }
  }
  return groups;
}

/** SIGTERM, a short grace, then SIGKILL; resolves with how many groups there were. */
async function endProcessGroups(groups: ReadonlySet<number>, clock: Clock): Promise<number> {
  if (groups.size === 0) return 0;
  for (const group of groups) signalGroup(group, "SIGTERM");
  const deadline = clock.now() + orphanGraceMs;
  const alive = (): number[] =>
    [...groups].filter((group) => {
      const state = readProcStat(group)?.state;
      return state !== undefined && state !== "Z" && state !== "X";
    });
  while (alive().length > 0 && clock.now() < deadline) await sleep(clock, 50);
  for (const group of groups) signalGroup(group, "SIGKILL");
  return groups.size;
}

/** Pod and log directories of pods the agent no longer knows (a crash before the first record). */
function removeStrayDirectories(deps: WorkerDeps, kept: ReadonlySet<string>): void {
  for (const uid of deps.store.strayPodDirs(kept)) deps.store.remove(uid);
  const logPods = join(deps.logsRoot, "pods");
  let entries: string[] = [];
  try {
    entries = readdirSync(logPods);
  } catch {
    return;
  }
  for (const entry of entries) {
    const uid = entry.slice(entry.lastIndexOf("_") + 1);
    if (!kept.has(uid)) rmSync(join(logPods, entry), { recursive: true, force: true });
  }
}
