// The node heartbeat (KubeVirt's pkg/virt-handler/heartbeat): every interval, and at once when
// libvirt's connection comes or goes, the node gets a fresh `kubevirt.io/heartbeat`, the
// `kubevirt.io/schedulable` label, its KVM resource and the host-tools condition (looked up again on
// every beat, so a tool the admin installs is noticed without a restart). On stop the node is
// marked unschedulable.
import type { Logger } from "pino";
import { type Clock, type ResourceClient, type Runnable, systemClock } from "../../runtime/index.js";
import type { Node } from "../kinds.js";
import { HOST_TOOLS_FIX } from "../storage/host-commands.js";
import { describeMissingTools, type HostToolsReport } from "./host-tools.js";
import type { KvmStatus } from "./kvm-detection.js";
import { nodeMetadataPatch, nodeStatusPatch } from "./node-state.js";

export interface NodeHeartbeatOptions {
  readonly nodeName: string;
  readonly nodes: ResourceClient<Node>;
  /** Whether libvirt answers right now (a cheap call on the connection). */
  readonly libvirtAnswers: () => boolean;
  readonly kvm: KvmStatus;
  /** Looks up the programs virt-handler runs (checkHostTools), on every beat: it only reads PATH. */
  readonly hostTools: () => Promise<HostToolsReport>;
  /** Default 30 s. */
  readonly intervalMs?: number;
  readonly log: Logger;
  readonly clock?: Clock;
}

/** After a failed beat, the next comes sooner than the interval. */
const RETRY_MS = 5_000;

export class NodeHeartbeat implements Runnable {
  readonly name = "node-heartbeat";
  readonly needsLeaderElection = false;
  readonly #options: NodeHeartbeatOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  #wake: (() => void) | undefined;
  #pending = false;
  /** The missing tools as last logged; undefined before the first check. */
  #missingTools: string | undefined;

  constructor(options: NodeHeartbeatOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#log = options.log.child({ runnable: this.name, node: options.nodeName });
  }

  /** Beat now (e.g. libvirt's connection was lost or is back), not at the next interval. */
  trigger(): void {
    this.#pending = true;
    this.#wake?.();
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.#pending = false;
      const ok = await this.#beat(this.#options.libvirtAnswers());
      if (signal.aborted) break;
      await this.#sleep(ok ? (this.#options.intervalMs ?? 30_000) : RETRY_MS, signal);
    }
    // A stopped handler tends no VMs: take the node out of scheduling, as KubeVirt does on exit.
    await this.#beat(false);
  }

  /** One heartbeat; false when it could not be written. */
  async #beat(libvirtAnswers: boolean): Promise<boolean> {
    const { nodes, nodeName, kvm } = this.#options;
    try {
      const hostTools = await this.#options.hostTools();
      this.#logHostTools(hostTools);
      const facts = { libvirtAnswers, kvmUsable: kvm.usable, hostTools, now: this.#clock.now() };
      const node = await nodes.mergePatch({ name: nodeName }, nodeMetadataPatch(facts));
      const statusPatch = nodeStatusPatch(node, facts);
      if (statusPatch !== undefined) {
        await nodes.mergePatch({ name: nodeName }, statusPatch, { subresource: "status" });
        this.#log.info(
          { kvm: kvm.usable, detail: kvm.detail, hostToolsMissing: hostTools.missing.length > 0 },
          "node KVM resource and host-tools condition updated",
        );
      }
      return true;
    } catch (error) {
      this.#log.warn({ err: error }, "cannot write the node heartbeat");
      return false;
    }
  }

  /** A warning when tools go missing (at start, typically), a note when they are all back. */
  #logHostTools(report: HostToolsReport): void {
    const missing = describeMissingTools(report.missing);
    if (missing === this.#missingTools) return;
    const before = this.#missingTools;
    this.#missingTools = missing;
    if (missing !== "") {
      this.#log.warn(
        { missing },
        `programs virt-handler runs are not installed: the node is unschedulable for VMs until they are (${HOST_TOOLS_FIX})`,
      );
    } else if (before !== undefined) {
      this.#log.info({ found: report.found }, "the programs virt-handler runs are installed now");
    }
  }

  #sleep(delayMs: number, signal: AbortSignal): Promise<void> {
    if (this.#pending) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        cancel();
        signal.removeEventListener("abort", done);
        this.#wake = undefined;
        resolve();
      };
      const cancel = this.#clock.schedule(done, delayMs);
      signal.addEventListener("abort", done, { once: true });
      this.#wake = done;
    });
  }
}
