#!/usr/bin/env node
/**
 * virt-operator: turns the KubeVirt CR into an installed kubevirt-ts (CRDs, RBAC, the
 * PriorityClass, virt-api with its APIService and webhooks, virt-controller, virt-handler, and
 * the certificates they use, issued and renewed), keeps it as rendered, updates it when the CR
 * changes, and removes it when the CR is deleted. Leader-elected: any number of replicas, one
 * acts. Its own image ($VIRT_OPERATOR_IMAGE) says which version it installs.
 */
import { pino } from "pino";
import { Manager, stopOnSignals, systemClock } from "../runtime/index.js";
import { parseCliOptions } from "./cli-options.js";
import { loadKubeConfig } from "./kube-config.js";
import { addKubeVirtController } from "./kubevirt/kubevirt-controller.js";
import { OPERATOR_IMAGE_ENV, operatorIdentityFromImage } from "./operator-image.js";
import type { OperatorIdentity } from "./strategy/install-strategy.js";
import { renderStrategy } from "./strategy/render-strategy.js";

let options: ReturnType<typeof parseCliOptions>;
try {
  options = parseCliOptions(process.argv.slice(2), process.env);
} catch (error) {
  // commander already printed the message (or the help it was asked for).
  const code = (error as { exitCode?: number }).exitCode;
  process.exit(typeof code === "number" ? code : 2);
}
let identity: OperatorIdentity;
try {
  identity = operatorIdentityFromImage(process.env[OPERATOR_IMAGE_ENV], options.namespace);
} catch (error) {
  process.stderr.write(`virt-operator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const log = pino({ level: options.logLevel });
const manager = new Manager({
  name: "virt-operator",
  kubeConfig: loadKubeConfig(options.kubeconfig, process.env),
  log,
  leaderElection: {
    namespace: options.namespace,
    name: "virt-operator",
    ...(options.identity ? { identity: options.identity } : {}),
    leaseDurationMs: options.leaseDurationMs,
    renewDeadlineMs: options.renewDeadlineMs,
    retryPeriodMs: options.retryPeriodMs,
  },
  health: { host: options.address, port: options.port },
  clock: systemClock,
});
addKubeVirtController(manager, { identity, renderStrategy, clock: systemClock });
stopOnSignals(manager, log);
await manager.start();
log.info({ health: manager.healthUrl, ...identity }, "virt-operator started");
const exit = await manager.done;
process.exitCode = exit.reason === "stopped" ? 0 : 1;
