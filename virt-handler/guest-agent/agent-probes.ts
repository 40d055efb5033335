// exec and guestAgentPing probes of this node's running VMIs, run by virt-handler through the guest
// agent (KubeVirt has the kubelet run virt-probe in the launcher pod, which asks virt-launcher to do
// the same; here the node agent holds the libvirt connection, so it runs them). A readiness result
// that changes enqueues the VMI, whose Ready condition follows it; a liveness probe that fails its
// threshold stops the domain, as the kubelet killing the compute container would.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { agentExec, agentPing, type Connection, type Domain } from "../../libvirt/index.js";
import { type Frozen, objectKey, type Runnable, type SharedInformer } from "../../runtime/index.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";
import type { AgentReadiness } from "./agent-facts.js";
import { AgentProbeState, agentProbeKind, type ProbeOutcome } from "./agent-probe-state.js";

export interface AgentProbesDeps {
  readonly nodeName: string;
  readonly vmis: SharedInformer<Vmi>;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly enqueue: (key: string) => void;
  readonly log: Logger;
  /** Between looks at which probe is due (default 500 ms): a test seam. */
  readonly tickMs?: number;
}

interface VmiProbes {
  readonly uid: string;
  readonly readiness?: AgentProbeState;
  readonly liveness?: AgentProbeState;
}

export class AgentProbes implements Runnable {
  readonly name = "guest-agent-probes";
  readonly needsLeaderElection = false;
  readonly #deps: AgentProbesDeps;
  /** By domain name. */
  readonly #probes = new Map<string, VmiProbes>();

  constructor(deps: AgentProbesDeps) {
    this.#deps = deps;
  }

  /** Undefined when the VMI has no agent readiness probe (or it is not tracked yet: not ready). */
  readinessOf(domainName: string): AgentReadiness | undefined {
    const state = this.#probes.get(domainName)?.readiness;
    if (state === undefined) return undefined;
    return { ready: state.passing, ...(state.message ? { message: state.message } : {}) };
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.#tick().catch((err: unknown) =>
        this.#deps.log.warn({ err }, "running guest agent probes failed"),
      );
      await sleep(this.#deps.tickMs ?? 500, undefined, { signal }).catch(() => {});
    }
  }

  async #tick(): Promise<void> {
    const live = new Set<string>();
    const due: Promise<void>[] = [];
    for (const vmi of this.#deps.vmis.list()) {
      if (vmi.status?.nodeName !== this.#deps.nodeName || vmi.status?.phase !== "Running") continue;
      const readiness = agentProbeKind(vmi.spec.readinessProbe);
      const liveness = agentProbeKind(vmi.spec.livenessProbe);
      if (readiness === undefined && liveness === undefined) continue;
      const name = this.#deps.factory.domainName(vmi);
      live.add(name);
      const probes = this.#probesOf(name, vmi);
      due.push(this.#runDue(name, vmi, probes));
    }
    await Promise.all(due);
    for (const name of [...this.#probes.keys()]) if (!live.has(name)) this.#probes.delete(name);
  }

  #probesOf(name: string, vmi: Frozen<Vmi>): VmiProbes {
    const uid = vmi.metadata?.uid ?? "";
    const known = this.#probes.get(name);
    if (known?.uid === uid) return known;
    const now = Date.now();
    const { readinessProbe, livenessProbe } = vmi.spec;
    const probes: VmiProbes = {
      uid,
      ...(agentProbeKind(readinessProbe) && readinessProbe
        ? { readiness: new AgentProbeState(readinessProbe, now, false) }
        : {}),
      ...(agentProbeKind(livenessProbe) && livenessProbe
        ? { liveness: new AgentProbeState(livenessProbe, now, true) }
        : {}),
    };
    this.#probes.set(name, probes);
    return probes;
  }

  async #runDue(name: string, vmi: Frozen<Vmi>, probes: VmiProbes): Promise<void> {
    const { readiness, liveness } = probes;
    if (readiness?.due(Date.now())) {
      const outcome = await this.#probe(name, vmi.spec.readinessProbe, readiness.timeoutMs);
      if (readiness.record(outcome, Date.now())) this.#deps.enqueue(objectKey(vmi));
    }
    if (liveness?.due(Date.now())) {
      const outcome = await this.#probe(name, vmi.spec.livenessProbe, liveness.timeoutMs);
      if (liveness.record(outcome, Date.now()) && !liveness.passing)
        await this.#kill(name, vmi, liveness.message);
    }
  }

  async #probe(
    name: string,
    probe: Frozen<Vmi["spec"]["readinessProbe"]>,
    timeoutMs: number,
  ): Promise<ProbeOutcome> {
    let domain: Domain | null = null;
    try {
      domain = this.#deps.connection.findDomainByName(name);
      if (domain === null) return { success: false, message: "the VMI's domain is not running" };
      if (probe?.guestAgentPing !== undefined) {
        await agentPing(domain, Math.ceil(timeoutMs / 1000));
        return { success: true };
      }
      const command = probe?.exec?.command ?? [];
      const result = await agentExec(domain, command, { timeoutMs });
      if (result.exitCode === 0) return { success: true };
      const output = `${result.stdout}${result.stderr}`.trim();
      return {
        success: false,
        message: `command exited with ${result.exitCode ?? `signal ${result.signal}`}${output ? `: ${output}` : ""}`,
      };
    } catch (err) {
      return { success: false, message: err instanceof Error ? err.message : String(err) };
    } finally {
      domain?.free();
    }
  }

  async #kill(name: string, vmi: Frozen<Vmi>, why: string | undefined): Promise<void> {
    this.#deps.log.warn(
      { namespace: vmi.metadata?.namespace, name: vmi.metadata?.name, why },
      "liveness probe failed: stopping the VMI",
    );
    const domain = this.#deps.connection.findDomainByName(name);
    try {
      await domain?.destroy();
    } finally {
      domain?.free();
      this.#deps.enqueue(objectKey(vmi));
    }
  }
}
