// The node agent's own account of each launcher pod's start, read from the dev cluster's output
// (start.mjs writes it to start.log beside the stack's data directory): its sandbox (network,
// volumes), each container's start and the status write, with the programs they ran
// (runtime/tracing/step-trace.ts). JSON lines (pino); `time` is epoch ms on this host.
import { readFile } from "node:fs/promises";
import type { StepTraceRecord } from "../runtime/index.js";

interface LogLine {
  msg?: string;
  pod?: string;
  startTrace?: StepTraceRecord;
}

/** The first start traced for each pod of `namespace`, by pod name. */
export async function podStarts(startLog: string, namespace: string): Promise<Map<string, StepTraceRecord>> {
  const starts = new Map<string, StepTraceRecord>();
  for (const text of (await readFile(startLog, "utf8")).split("\n")) {
    if (!text.startsWith("{") || !text.includes('"containers started"')) continue;
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      continue; // a line cut short by the log's end
    }
    const [podNamespace, name] = (line.pod ?? "").split("/");
    if (podNamespace !== namespace || !name || !line.startTrace || starts.has(name)) continue;
    starts.set(name, line.startTrace);
  }
  return starts;
}
