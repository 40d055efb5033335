// Restart safety: once the caches are synced, every domain this node's handler defined is looked at
// (its VMI's key is enqueued: the reconcile adopts it, or removes it when its VMI is gone), and VM
// directories that belong to no domain and no live VMI are removed. Nothing here stops a running VM
// whose VMI still exists.
import { readdir } from "node:fs/promises";
import type { Logger } from "pino";
import type { Connection } from "../../libvirt/index.js";
import type { Runnable, SharedInformer } from "../../runtime/index.js";
import { domainsOfNode, vmiKeyOf } from "../domain/domain-inventory.js";
import type { DomainLifecycle } from "../domain/domain-lifecycle.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";

export interface StartupSweepOptions {
  readonly nodeName: string;
  readonly stateDir: string;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly lifecycle: DomainLifecycle;
  readonly vmis: SharedInformer<Vmi>;
  /** Caches the reconcile reads besides the VMIs (the launcher pods). */
  readonly alsoSynced: readonly { waitForSync(signal?: AbortSignal): Promise<boolean> }[];
  readonly enqueue: (key: string) => void;
  readonly log: Logger;
}

export class StartupSweep implements Runnable {
  readonly name = "startup-sweep";
  readonly needsLeaderElection = false;
  readonly #options: StartupSweepOptions;

  constructor(options: StartupSweepOptions) {
    this.#options = options;
  }

  async run(signal: AbortSignal): Promise<void> {
    const { vmis, alsoSynced, log } = this.#options;
    const synced = await Promise.all([vmis, ...alsoSynced].map((cache) => cache.waitForSync(signal)));
    if (signal.aborted || !synced.every(Boolean)) return;
    const domainUids = this.enqueueNodeDomains();
    const removed = await this.#removeOrphanDirectories(domainUids);
    log.info({ domains: domainUids.size, removedDirectories: removed }, "startup sweep done");
  }

  /** Enqueues the VMI of every domain of this node; returns their VMI uids. */
  enqueueNodeDomains(): Set<string> {
    const { connection, factory, nodeName, enqueue } = this.#options;
    const domains = domainsOfNode(connection, factory, nodeName);
    for (const domain of domains) enqueue(vmiKeyOf(domain.identity));
    return new Set(domains.map((domain) => domain.identity.uid));
  }

  async #removeOrphanDirectories(domainUids: ReadonlySet<string>): Promise<number> {
    const { stateDir, vmis, lifecycle, log } = this.#options;
    // Directory names first, the VMIs second: a directory made for a VMI is made after the VMI
    // reached the cache, so every directory listed here whose VMI lives is in the later snapshot.
    const names = await readdir(stateDir).catch(() => [] as string[]);
    const live = new Set(
      vmis
        .list()
        .filter((vmi) => vmi.status?.phase !== "Succeeded" && vmi.status?.phase !== "Failed")
        .map((vmi) => vmi.metadata?.uid ?? ""),
    );
    let removed = 0;
    for (const uid of names) {
      if (domainUids.has(uid) || live.has(uid) || !/^[A-Za-z0-9-]+$/.test(uid)) continue;
      await lifecycle.removeFiles(uid);
      log.info({ uid }, "removed the files of a VM that is gone");
      removed += 1;
    }
    return removed;
  }
}
