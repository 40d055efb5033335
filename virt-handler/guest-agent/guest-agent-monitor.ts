// Polls the guest agents of this node's running domains (every 10 s by default, and at once for a
// domain whose agent connects or leaves): the OS it reports and its interfaces' addresses, kept by
// domain name for the VMI reconciler, which is enqueued whenever a report changes. Level-based:
// each round lists the domains and reads their channel state afresh, so a missed event costs at
// most one interval. An event looks at its own domain only: every domain that starts sends one,
// and a round for each would read every domain's definition again, per start, while a burst of
// VMs starts.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { domainFromXml } from "../../libvirt/domain-xml/index.js";
import {
  type Connection,
  type Domain,
  DomainState,
  GuestInfoTypes,
  InterfaceAddressSource,
  ListDomainsFlags,
  type Subscription,
} from "../../libvirt/index.js";
import { jsonEqual, type Runnable } from "../../runtime/index.js";
import { vmiKeyOfDomainName } from "../domain/domain-tag.js";
import { agentChannelConnected, type GuestAgentReport, type GuestAgentReports } from "./agent-facts.js";

export interface GuestAgentMonitorDeps {
  readonly connection: Connection;
  /** Enqueues a VMI (by key) whose agent report changed. */
  readonly enqueue: (key: string) => void;
  readonly log: Logger;
  /** Between rounds (default 10 s). */
  readonly intervalMs?: number;
}

export class GuestAgentMonitor implements Runnable, GuestAgentReports {
  readonly name = "guest-agent-monitor";
  readonly needsLeaderElection = false;
  readonly #deps: GuestAgentMonitorDeps;
  readonly #reports = new Map<string, GuestAgentReport>();
  #wake: (() => void) | undefined;
  /** Domains whose agent connected or left since they were last looked at. */
  #pending = new Set<string>();

  constructor(deps: GuestAgentMonitorDeps) {
    this.#deps = deps;
  }

  reportOf(domainName: string): GuestAgentReport | undefined {
    return this.#reports.get(domainName);
  }

  async run(signal: AbortSignal): Promise<void> {
    const events = this.#followAgentEvents();
    const intervalMs = this.#deps.intervalMs ?? 10_000;
    let nextRound = 0;
    try {
      while (!signal.aborted) {
        if (Date.now() >= nextRound) {
          this.#pending.clear();
          nextRound = Date.now() + intervalMs;
          await this.#round().catch((err: unknown) => {
            this.#deps.log.warn({ err }, "polling the guest agents failed; trying again next round");
          });
        } else {
          const names = [...this.#pending];
          this.#pending.clear();
          for (const name of names) await this.#look(name);
        }
        if (this.#pending.size === 0) await this.#sleep(signal, nextRound - Date.now());
      }
    } finally {
      events?.unsubscribe();
    }
  }

  /** An agent connected or left: its VMI's condition changes now, its report at the next round (now). */
  #followAgentEvents(): Subscription | undefined {
    try {
      return this.#deps.connection.onAgentLifecycle((event) => {
        const key = vmiKeyOfDomainName(event.domain.name);
        if (key === undefined) return;
        this.#deps.enqueue(key);
        this.#pending.add(event.domain.name);
        this.#wake?.();
      });
    } catch (err) {
      this.#deps.log.warn({ err }, "cannot follow guest agent events; polling only");
      return undefined;
    }
  }

  async #sleep(signal: AbortSignal, ms: number): Promise<void> {
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    await Promise.race([sleep(Math.max(0, ms), undefined, { signal }).catch(() => {}), woken]);
    this.#wake = undefined;
  }

  /** One domain, by name: its report now, or none when it is gone or its agent is not connected. */
  async #look(name: string): Promise<void> {
    const { connection } = this.#deps;
    const read = connection.connected ? await connection.readDomainByName(name).catch(() => null) : null;
    try {
      const active =
        read !== null && read.state.state !== DomainState.Shutoff && read.state.state !== DomainState.Crashed;
      if (read !== null && active && this.#agentConnectedIn(read.xml))
        this.#store(name, await this.#report(read.domain));
      else this.#store(name, undefined);
    } catch (err) {
      this.#deps.log.debug({ err, domain: name }, "a domain vanished or its agent did not answer");
    } finally {
      read?.domain.free();
    }
  }

  async #round(): Promise<void> {
    const { connection } = this.#deps;
    if (!connection.connected) return;
    const seen = new Set<string>();
    for (const domain of connection.listAllDomains(ListDomainsFlags.Active)) {
      try {
        const name = domain.name;
        if (vmiKeyOfDomainName(name) === undefined || !this.#agentConnected(domain)) continue;
        seen.add(name);
        this.#store(name, await this.#report(domain));
      } catch (err) {
        this.#deps.log.debug({ err }, "a domain vanished or its agent did not answer");
      } finally {
        domain.free();
      }
    }
    for (const name of [...this.#reports.keys()]) {
      if (!seen.has(name)) this.#store(name, undefined);
    }
  }

  #agentConnected(domain: Domain): boolean {
    return this.#agentConnectedIn(domain.xml());
  }

  #agentConnectedIn(xml: string): boolean {
    try {
      return agentChannelConnected(domainFromXml(xml));
    } catch {
      return false; // not a definition our model reads: not one of ours
    }
  }

  async #report(domain: Domain): Promise<GuestAgentReport> {
    const info = await domain.guestInfo(GuestInfoTypes.OS);
    const interfaces = await domain
      .interfaceAddresses(InterfaceAddressSource.Agent)
      .catch(() => [] as Awaited<ReturnType<Domain["interfaceAddresses"]>>);
    return { osInfo: info.os, interfaces };
  }

  #store(name: string, report: GuestAgentReport | undefined): void {
    const before = this.#reports.get(name);
    if (jsonEqual(before ?? null, report ?? null)) return;
    if (report === undefined) this.#reports.delete(name);
    else this.#reports.set(name, report);
    const key = vmiKeyOfDomainName(name);
    if (key !== undefined) this.#deps.enqueue(key);
  }
}
