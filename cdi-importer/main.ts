#!/usr/bin/env node
/**
 * cdi-importer: the program of a DataVolume's importer pod. Reads CDI's IMPORTER_* variables, serves
 * its progress on /metrics, writes /data/disk.img and exits 0; on failure exits 1 with one line on
 * stderr and in the termination message. See README.md.
 */
// Not runtime/index.js: see importer-env.ts.
import { componentLogger } from "../runtime/logging/component-logger.js";
import { hostPathOf } from "./container-paths.js";
import { runImport } from "./disk-import.js";
import { oneLineReason } from "./import-error.js";
import { ImportProgress } from "./import-progress.js";
import { parseImporterEnv } from "./importer-env.js";
import { type MetricsServer, startMetricsServer } from "./metrics-server.js";
import { writeTerminationMessage } from "./termination-message.js";

const log = componentLogger({ level: process.env.LOG_LEVEL ?? "info", name: "cdi-importer" });

async function main(): Promise<void> {
  const request = parseImporterEnv(process.env);
  const progress = new ImportProgress(request.ownerUid);
  const metrics: MetricsServer = await startMetricsServer(progress.registry, request.metricsPort);
  log.info({ source: request.source, size: request.imageSize, metricsPort: metrics.port }, "import started");
  try {
    const outcome = await runImport(
      request,
      { data: hostPathOf("/data", process.env), source: hostPathOf("/source", process.env) },
      progress,
      log,
    );
    log.info({ outcome }, outcome === "already-done" ? "disk.img is already there" : "import done");
  } finally {
    await metrics.close();
  }
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  const reason = oneLineReason(error);
  log.error({ err: error }, "import failed");
  process.stderr.write(`${reason}\n`);
  await writeTerminationMessage(reason, process.env);
  exitCode = 1;
}
// Exit now: an idle keep-alive socket of the download must not hold the pod for seconds.
process.exit(exitCode);
