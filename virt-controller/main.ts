#!/usr/bin/env node
/**
 * virt-controller: VirtualMachines become VMIs, VMIs become launcher pods, running pods hand
 * their VMI to the node's virt-handler. Leader-elected: any number of replicas, one acts.
 * Flags say where things are; configuration comes from the KubeVirt CR in --namespace.
 */
import { pino } from "pino";
import { Manager, stopOnSignals, systemClock } from "../runtime/index.js";
import { parseCliOptions } from "./cli-options.js";
import { addVirtControllers } from "./controllers.js";
import { loadKubeConfig } from "./kube-config.js";

let options: ReturnType<typeof parseCliOptions>;
try {
  options = parseCliOptions(process.argv.slice(2));
} catch (error) {
  // commander already printed the message (or the help it was asked for).
  const code = (error as { exitCode?: number }).exitCode;
  process.exit(typeof code === "number" ? code : 2);
}
const log = pino({ level: options.logLevel });
const manager = new Manager({
  name: "virt-controller",
  kubeConfig: loadKubeConfig(options.kubeconfig, process.env),
  log,
  leaderElection: {
    namespace: options.namespace,
    name: "virt-controller",
    ...(options.identity ? { identity: options.identity } : {}),
    leaseDurationMs: options.leaseDurationMs,
    renewDeadlineMs: options.renewDeadlineMs,
    retryPeriodMs: options.retryPeriodMs,
  },
  health: { host: options.address, port: options.port },
  clock: systemClock,
});
addVirtControllers(manager, {
  namespace: options.namespace,
  launcherImage: options.launcherImage,
  clock: systemClock,
});
stopOnSignals(manager, log);
await manager.start();
log.info(
  { health: manager.healthUrl, namespace: options.namespace, launcherImage: options.launcherImage },
  "virt-controller started",
);
const exit = await manager.done;
process.exitCode = exit.reason === "stopped" ? 0 : 1;
