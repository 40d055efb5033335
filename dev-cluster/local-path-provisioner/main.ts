#!/usr/bin/env node
/**
 * The local-path provisioner's process, the entry point of its pod: in-cluster credentials (the
 * service account the node agent mounts, read under $KUBEVIRT_TS_ROOT), flags for where the
 * volumes live; local-path-provisioner.ts wires the controllers.
 */
import {
  componentLogger,
  exitCodeOf,
  loadKubeConfig,
  parseOrExit,
  stopOnSignals,
} from "../../runtime/index.js";
import { parseCommandLine } from "./cli-options.js";
import { type RunningLocalPathProvisioner, startLocalPathProvisioner } from "./local-path-provisioner.js";

const flags = parseOrExit(() => parseCommandLine(process.argv));
const log = componentLogger({ name: "local-path-provisioner", level: flags.logLevel });
let provisioner: RunningLocalPathProvisioner;
try {
  provisioner = await startLocalPathProvisioner({
    kubeConfig: loadKubeConfig(flags.kubeconfig, process.env),
    baseDir: flags.baseDir,
    nodeName: flags.nodeName,
    log,
  });
} catch (error) {
  process.stderr.write(`local-path-provisioner: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
log.info({ baseDir: flags.baseDir, node: flags.nodeName }, "local-path provisioner started");
stopOnSignals(provisioner, log);
process.exitCode = exitCodeOf(await provisioner.done);
