// Where a burst's start time goes, per VMI and phase: the milestones the benchmark's watches saw
// (VM create sent, VMI created, launcher pod created, bound, running, VMI handed to the node,
// Running seen) joined with virt-handler's trace of each start (its steps, and every program the
// steps ran). Each phase is the time between two consecutive milestones, so the phases of one
// VMI add up to its creation → Running.
import type { StepTraceRecord } from "../runtime/index.js";
import type { VmiRecord } from "../test/e2e/testing/vm-burst-recorder.js";
import { type Metric, percentile } from "./bench-report.js";
import type { HandlerStart } from "./vm-density-handler-log.js";

export interface PhaseRow {
  readonly phase: string;
  /** Who spends it. */
  readonly by: string;
  readonly values: readonly number[];
}

export interface ProgramRow {
  readonly program: string;
  readonly perVm: number;
  readonly values: readonly number[];
}

export interface Breakdown {
  readonly phases: readonly PhaseRow[];
  readonly programs: readonly ProgramRow[];
  /** VMIs without a complete record (no pod, no handler trace): left out of the phases. */
  readonly incomplete: readonly string[];
}

export interface BreakdownInputs {
  readonly vmis: ReadonlyMap<string, VmiRecord>;
  /** When each VM's create request left (epoch ms, by name). */
  readonly sentAt: ReadonlyMap<string, number>;
  /** When each VM was seen stored (its ADDED event). */
  readonly vmAddedAt: ReadonlyMap<string, number>;
  /** virt-handler's trace of each VMI's start, by VMI name. */
  readonly handlerStarts: ReadonlyMap<string, HandlerStart>;
  /** The node agent's trace of each launcher pod's start, by pod name. */
  readonly podStarts: ReadonlyMap<string, StepTraceRecord>;
}

export function breakdownOf(inputs: BreakdownInputs): Breakdown {
  const { vmis, sentAt, vmAddedAt } = inputs;
  const rows = new Map<string, { by: string; values: number[] }>();
  const add = (phase: string, by: string, value: number) => {
    const row = rows.get(phase) ?? { by, values: [] };
    row.values.push(value);
    rows.set(phase, row);
  };
  const programs = new Map<string, number[]>();
  const record = (by: string, trace: StepTraceRecord) => {
    for (const run of trace.programs) {
      const key = `${by}: ${run.program}`;
      const values = programs.get(key) ?? [];
      values.push(run.ms);
      programs.set(key, values);
    }
  };
  const incomplete: string[] = [];
  let complete = 0;
  for (const [name, vmi] of vmis) {
    const start = inputs.handlerStarts.get(name);
    const sent = sentAt.get(name);
    const stored = vmAddedAt.get(name);
    const podStart = vmi.pod && inputs.podStarts.get(vmi.pod.name);
    const scheduled = vmi.phaseSeenAt.get("Scheduled");
    const pod = vmi.pod;
    if (
      !start ||
      !podStart ||
      sent === undefined ||
      stored === undefined ||
      scheduled === undefined ||
      !pod?.boundAt ||
      !pod.runningAt ||
      !vmi.runningSeenAt ||
      !start.runningWrittenAt
    ) {
      incomplete.push(name);
      continue;
    }
    complete++;
    const { trace } = start;
    const startEnd = trace.startedAt + trace.totalMs;
    add("VM create sent → VM stored", "API server, virt-api webhooks", stored - sent);
    add("VM stored → VMI created", "virt-controller (VM)", vmi.addedAt - stored);
    add("VMI created → launcher pod created", "virt-controller (VMI)", pod.addedAt - vmi.addedAt);
    add("pod created → bound to the node", "scheduler", pod.boundAt - pod.addedAt);
    add("bound → node agent starts the pod", "node agent (queue)", podStart.startedAt - pod.boundAt);
    for (const step of podStart.steps) add(`node agent: ${step.step}`, "node agent", step.ms);
    add(
      "status written → pod Running seen",
      "API server → watch",
      pod.runningAt - (podStart.startedAt + podStart.totalMs),
    );
    add("pod running → VMI handed to the node", "virt-controller (VMI)", scheduled - pod.runningAt);
    add("handed over → virt-handler starts it", "virt-handler (queue, cache)", trace.startedAt - scheduled);
    for (const step of trace.steps) add(`virt-handler: ${step.step}`, "virt-handler", step.ms);
    add("started → Running written", "virt-handler (status)", start.runningWrittenAt - startEnd);
    // The log line follows the write's answer, which may come after the watch event: about 0.
    add("Running written (logged) → seen", "API server → watch", vmi.runningSeenAt - start.runningWrittenAt);
    add("= VMI created → handed to the node", "control plane", scheduled - vmi.addedAt);
    add("= handed to the node → Running seen", "node", vmi.runningSeenAt - scheduled);
    add("= VMI created → Running seen", "all", vmi.runningSeenAt - vmi.addedAt);
    record("virt-handler", trace);
    record("node agent", podStart);
  }
  return {
    phases: [...rows].map(([phase, row]) => ({ phase, by: row.by, values: row.values })),
    programs: [...programs]
      .map(([program, values]) => ({ program, perVm: complete ? values.length / complete : 0, values }))
      .sort((a, b) => b.perVm * mean(b.values) - a.perVm * mean(a.values)),
    incomplete,
  };
}

/** The breakdown as text tables: phases (p50, p95, max ms), then programs run per VM start. */
export function formatBreakdown(breakdown: Breakdown): string {
  const phaseRows = breakdown.phases.map((row) => {
    const sorted = [...row.values].sort((a, b) => a - b);
    return [row.phase, row.by, ms(percentile(sorted, 50)), ms(percentile(sorted, 95)), ms(sorted.at(-1))];
  });
  const programRows = breakdown.programs.map((row) => {
    const sorted = [...row.values].sort((a, b) => a - b);
    return [
      row.program,
      row.perVm.toFixed(1),
      ms(percentile(sorted, 50)),
      ms(percentile(sorted, 95)),
      ms(row.perVm * mean(row.values)),
    ];
  });
  const lines = [
    "where the time goes, per VMI (ms)",
    ...table(["phase", "by", "p50", "p95", "max"], phaseRows),
    "",
    "programs run per VM start (ms)",
    ...table(["program", "runs/VM", "p50", "p95", "ms/VM"], programRows),
  ];
  if (breakdown.incomplete.length > 0)
    lines.push("", `left out (incomplete record): ${breakdown.incomplete.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** p50 and p95 of each phase, as benchmark metrics (`phase_<slug>_p50`). */
export function breakdownMetrics(breakdown: Breakdown): Record<string, Metric> {
  const metrics: Record<string, Metric> = {};
  for (const row of breakdown.phases) {
    const sorted = [...row.values].sort((a, b) => a - b);
    const slug = row.phase
      .replace(/^= /, "total ")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "");
    metrics[`phase_${slug}_p50`] = { value: percentile(sorted, 50), unit: "ms" };
    metrics[`phase_${slug}_p95`] = { value: percentile(sorted, 95), unit: "ms" };
  }
  return metrics;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i === 0 || (i === 1 && header[1] === "by")
          ? cell.padEnd(widths[i] ?? 0)
          : cell.padStart(widths[i] ?? 0),
      )
      .join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

function ms(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? "-" : String(Math.round(value));
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : 0;
}
