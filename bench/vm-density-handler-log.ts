// virt-handler's own account of each VM start, read back from its pod's log with kubectl: the
// steps of the start (volumes, pod network, define, start) with every program they ran
// (runtime/tracing/step-trace.ts), and when it wrote the Running phase. The log is JSON lines
// (pino): `time` is epoch ms on this host, the clock the benchmark's watches use too.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { StepTraceRecord } from "../runtime/index.js";

export interface HandlerStart {
  /** The trace of the start that brought the VMI up (the last one logged before Running). */
  readonly trace: StepTraceRecord;
  /** When virt-handler logged the start's end. */
  readonly startedLoggedAt: number;
  /** When virt-handler logged its write of phase Running (epoch ms). */
  runningWrittenAt?: number;
}

interface LogLine {
  time?: number;
  msg?: string;
  namespace?: string;
  name?: string;
  phase?: string;
  startTrace?: StepTraceRecord;
}

/** The starts virt-handler logged for VMIs of `namespace`, by VMI name. */
export async function handlerStarts(
  kubeconfig: string,
  namespace: string,
): Promise<Map<string, HandlerStart>> {
  const { stdout } = await promisify(execFile)(
    "kubectl",
    ["--kubeconfig", kubeconfig, "-n", "kubevirt", "logs", "-l", "kubevirt.io=virt-handler", "--tail=-1"],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  const starts = new Map<string, HandlerStart>();
  for (const text of stdout.split("\n")) {
    const line = parseLine(text);
    if (line?.namespace !== namespace || line.name === undefined || line.time === undefined) continue;
    if (line.msg === "domain defined and started" && line.startTrace !== undefined) {
      if (starts.get(line.name)?.runningWrittenAt === undefined)
        starts.set(line.name, { trace: line.startTrace, startedLoggedAt: line.time });
    } else if (line.msg === "VMI status written" && line.phase === "Running") {
      const start = starts.get(line.name);
      if (start !== undefined && start.runningWrittenAt === undefined) start.runningWrittenAt = line.time;
    }
  }
  return starts;
}

function parseLine(text: string): LogLine | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return undefined; // a line cut short by the log's end
  }
}
