#!/usr/bin/env node
/**
 * virt-controller: VirtualMachines become VMIs, VMIs become launcher pods, running pods hand
 * their VMI to the node's virt-handler. Leader-elected: any number of replicas, one acts.
 * Flags say where things are; configuration comes from the KubeVirt CR in --namespace.
 */
import {
  componentLogger,
  loadKubeConfig,
  Manager,
  parseOrExit,
  stopOnSignals,
  systemClock,
} from "../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { parseCliOptions } from "./cli-options.js";
import { addVirtControllers } from "./controllers.js";

const options = parseOrExit(() => parseCliOptions(process.argv.slice(2)));
const log = componentLogger({ level: options.logLevel });
const manager = new Manager({
  name: "virt-controller",
  kubeConfig: loadKubeConfig(options.kubeconfig, process.env),
  log,
  leaderElection: {
    namespace: options.namespace,
    name: "virt-controller",
    ...options.leaderElection,
  },
  health: { host: options.address, port: options.healthPort },
  // KubeVirt's https://POD:8443/metrics, with the certificate virt-operator issues for virt-controller.
  metrics: {
    host: options.address,
    port: options.metricsPort,
    secret: { namespace: options.namespace, name: CERTIFICATE_SECRETS.controllerServer },
  },
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
