import { Gauge, Histogram, type Registry } from "prom-client";
import { VMI_PHASES } from "../../api/index.js";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import { parseWireTime } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { phaseOf } from "../vmi-phase.js";

/** KubeVirt's buckets for phase transition times (seconds). */
const TRANSITION_BUCKETS = [
  0.5, 1, 2, 5, 10, 20, 30, 40, 50, 60, 90, 120, 180, 240, 300, 600, 900, 1200, 1800, 2400, 3000, 3600,
];

/**
 * KubeVirt's VMI metrics, reported by the leader only (every replica caches the same VMIs; two
 * reporting would count each VMI twice):
 *  - `kubevirt_vmi_phase_count{phase, node}`: VMIs per phase and node, read from the cache on scrape;
 *  - `kubevirt_vmi_phase_transition_time_from_creation_seconds{phase}`: from creationTimestamp to
 *    each phase a VMI enters (whoever moved it: virt-controller or virt-handler).
 */
export class VmiPhaseMetrics {
  readonly #transitions: Histogram<"phase">;
  readonly #isLeader: () => boolean;
  readonly #now: () => number;

  constructor(
    registry: Registry,
    vmis: SharedInformer<VirtualMachineInstance>,
    isLeader: () => boolean,
    now: () => number,
  ) {
    this.#isLeader = isLeader;
    this.#now = now;
    new Gauge<"phase" | "node">({
      name: "kubevirt_vmi_phase_count",
      help: "Sum of VMIs per phase and node.",
      labelNames: ["phase", "node"],
      registers: [registry],
      collect() {
        this.reset();
        if (!isLeader()) return;
        for (const vmi of vmis.list()) {
          this.inc({ phase: phaseOf(vmi).toLowerCase(), node: vmi.status?.nodeName ?? "" });
        }
      },
    });
    this.#transitions = new Histogram<"phase">({
      name: "kubevirt_vmi_phase_transition_time_from_creation_seconds",
      help: "Seconds from a VMI's creation to each phase it entered.",
      labelNames: ["phase"],
      buckets: TRANSITION_BUCKETS,
      registers: [registry],
    });
    for (const phase of VMI_PHASES) this.#transitions.zero({ phase });
    vmis.addEventHandler({ onUpdate: (previous, current) => this.#observe(previous, current) });
  }

  #observe(previous: Frozen<VirtualMachineInstance>, current: Frozen<VirtualMachineInstance>): void {
    const phase = phaseOf(current);
    if (phase === phaseOf(previous) || !this.#isLeader()) return;
    const created = parseWireTime(current.metadata?.creationTimestamp);
    const entry = [...(current.status?.phaseTransitionTimestamps ?? [])]
      .reverse()
      .find((e) => e.phase === phase);
    const entered = parseWireTime(entry?.phaseTransitionTimestamp) ?? this.#now();
    if (created === undefined) return;
    this.#transitions.observe({ phase }, Math.max(0, (entered - created) / 1000));
  }
}
