#!/usr/bin/env node
/**
 * virt-controller: VirtualMachines become VMIs, VMIs become launcher pods, running pods hand
 * their VMI to the node's virt-handler. Leader-elected: any number of replicas, one acts.
 * Flags say where things are; configuration comes from the KubeVirt CR in --namespace.
 */
import {
  componentLogger,
  exitCodeOf,
  leaderElectedManager,
  parseOrExit,
  stopOnSignals,
  systemClock,
} from "../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { parseCliOptions } from "./cli-options.js";
import { addVirtControllers } from "./virt-controller.js";

const options = parseOrExit(() => parseCliOptions(process.argv.slice(2)));
const log = componentLogger({ level: options.logLevel });
// /metrics with the certificate virt-operator issues for virt-controller.
const manager = leaderElectedManager({
  name: "virt-controller",
  namespace: options.namespace,
  metricsSecret: CERTIFICATE_SECRETS.controllerServer,
  flags: options,
  log,
  env: process.env,
});
addVirtControllers(manager, {
  namespace: options.namespace,
  launcherImage: options.launcherImage,
  importerImage: options.importerImage,
  clock: systemClock,
});
stopOnSignals(manager, log);
await manager.start();
log.info(
  { health: manager.healthUrl, namespace: options.namespace, launcherImage: options.launcherImage },
  "virt-controller started",
);
process.exitCode = exitCodeOf(await manager.done);
