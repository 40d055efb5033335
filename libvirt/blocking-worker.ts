// Entry point of a blocking-call worker thread (see blocking-pool.ts).
import { parentPort } from "node:worker_threads";
import { blockingOps } from "./blocking-ops.js";
import type { JobReply, JobRequest } from "./blocking-protocol.js";
import { LibvirtError } from "./errors.js";

function runJob(request: JobRequest): JobReply {
  const op = blockingOps[request.op] as (...args: unknown[]) => unknown;
  try {
    return { id: request.id, ok: true, value: op(...request.args) };
  } catch (err) {
    if (err instanceof LibvirtError) {
      const data = { code: err.code, domain: err.domain, level: err.level, message: err.libvirtMessage };
      return { id: request.id, ok: false, libvirt: { operation: err.operation, data } };
    }
    return { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

parentPort?.on("message", (request: JobRequest) => {
  parentPort?.postMessage(runJob(request));
});
