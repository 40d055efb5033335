import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import type { Logger } from "pino";
import { runIp } from "../node-agent/network/ip-command.js";
import { applyNftScript } from "./nft-command.js";
import { renderRuleset } from "./nft-ruleset.js";
import type { ServicePortRule } from "./service-rules.js";

export interface ServiceDataplaneOptions {
  /** The node bridge; pod namespaces are `<bridge>-<pod uid>` (the node agent's names). */
  bridge: string;
  podCidr: string;
  /** The node's address on the bridge: the pods' next hop to the service range. */
  bridgeAddress: string;
  serviceCidr: string;
  /** Where NodePorts answer: the bridge address and the node's InternalIP. */
  nodeAddresses: readonly string[];
  log: Logger;
}

/** The table in every pod namespace; pods have one dataplane each, so one name serves all. */
export const POD_TABLE = "kubevirt-ts-services";

/**
 * Programs the Service rules into the node's network namespace and into every pod namespace of
 * the node (the node agent's, found by name under /run/netns). Rules live in each pod because
 * the pods' bridge carries their traffic at layer 2: a reply from an endpoint to a client on the
 * same bridge never passes the node's netfilter, so only the client's own namespace can undo
 * the translation. The node has its own table, named after the bridge, so that two dev clusters
 * on one machine keep theirs apart.
 *
 * Level-based: `sync` renders the ruleset from the whole rule list and applies it where what was
 * applied last differs (a namespace seen for the first time, or changed rules); `prepare` does
 * it for one new pod before its containers start. A restarted proxy applies everything again.
 */
export class ServiceDataplane {
  readonly #options: ServiceDataplaneOptions;
  readonly #nodeTable: string;
  /** What was applied where: the ruleset's hash per namespace ("" is the node's). */
  readonly #applied = new Map<string, string>();
  #rules: readonly ServicePortRule[] = [];
  /**
   * Work in order per key: each namespace's ("" the node's), and "sync" for whole syncs. A new
   * pod's namespace waits only for work on itself, not for every other pod's: a burst of pod
   * starts programmed its namespaces one after the other.
   */
  readonly #queues = new Map<string, Promise<void>>();

  constructor(options: ServiceDataplaneOptions) {
    this.#options = options;
    this.#nodeTable = `kubevirt-ts-${options.bridge}`;
  }

  /** Takes the current rules and brings every namespace of the node up to them. */
  sync(rules: readonly ServicePortRule[]): Promise<void> {
    this.#rules = rules;
    return this.#inOrder(SYNC, async () => {
      await this.#inOrder(NODE, async () => {
        await this.#ensureNodeRoute();
        await this.#applyIfChanged(undefined);
      });
      const present = await this.#podNamespaces();
      for (const netns of present) {
        try {
          await this.#inOrder(netns, () => this.#applyIfChanged(netns));
        } catch (error) {
          // A pod that ends meanwhile takes its namespace along; the next sync forgets it.
          this.#options.log.warn({ err: error, netns }, "cannot program a pod's Service rules");
        }
      }
      for (const known of this.#applied.keys()) {
        if (known !== NODE && !present.includes(known)) this.#applied.delete(known);
      }
    });
  }

  /** Programs a new pod's namespace (route and rules) before its containers start. */
  prepare(netns: string): Promise<void> {
    // A namespace of this name may have existed before (a pod's network made again): apply anew.
    this.#applied.delete(netns);
    return this.#inOrder(netns, () => this.#applyIfChanged(netns));
  }

  /** Removes the node's table and route; the pods' go with their namespaces. */
  async close(): Promise<void> {
    await this.#inOrder(SYNC, () =>
      this.#inOrder(NODE, async () => {
        await applyNftScript(`table ip ${this.#nodeTable} {}\ndelete table ip ${this.#nodeTable}\n`);
        await runIp(["route", "del", this.#options.serviceCidr, "dev", this.#options.bridge]).catch(() => {});
        this.#applied.clear();
      }),
    );
  }

  async #applyIfChanged(netns: string | undefined): Promise<void> {
    const script = this.#script(netns);
    const hash = createHash("sha256").update(script).digest("hex");
    const key = netns ?? "";
    if (this.#applied.get(key) === hash) return;
    if (netns) await this.#ensurePodRoute(netns);
    await applyNftScript(script, netns);
    this.#applied.set(key, hash);
  }

  #script(netns: string | undefined): string {
    const { bridge, podCidr, serviceCidr, nodeAddresses } = this.#options;
    return renderRuleset({
      table: netns ? POD_TABLE : this.#nodeTable,
      place: netns ? { kind: "pod" } : { kind: "node", bridge, podCidr },
      serviceCidr,
      nodeAddresses,
      rules: this.#rules,
    });
  }

  /**
   * The pod reaches the service range through the node's bridge address; the route only makes
   * the address routable, since every packet to it is translated or refused in the pod itself.
   * A pod whose eth0 gave its address away (a VM's bridge binding) has no route to add: skipped.
   */
  async #ensurePodRoute(netns: string): Promise<void> {
    const { serviceCidr, bridgeAddress } = this.#options;
    await runIp(["-n", netns, "route", "replace", serviceCidr, "via", bridgeAddress, "dev", "eth0"]).catch(
      (error: unknown) => this.#options.log.debug({ err: error, netns }, "no route to the service range"),
    );
  }

  async #ensureNodeRoute(): Promise<void> {
    const { serviceCidr, bridge, bridgeAddress } = this.#options;
    await runIp(["route", "replace", serviceCidr, "dev", bridge, "src", bridgeAddress]);
  }

  async #podNamespaces(): Promise<string[]> {
    const prefix = `${this.#options.bridge}-`;
    const names = await readdir("/run/netns").catch(() => []);
    return names.filter((name) => name.startsWith(prefix));
  }

  #inOrder(key: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#queues.get(key) ?? Promise.resolve()).then(work);
    const settled = next.catch(() => {});
    this.#queues.set(key, settled);
    void settled.then(() => {
      if (this.#queues.get(key) === settled) this.#queues.delete(key);
    });
    return next;
  }
}

/** The queue keys of whole syncs and of the node's own namespace (pods' are their names). */
const SYNC = "sync:";
const NODE = "";
