#!/usr/bin/env node
/**
 * virt-operator: turns the KubeVirt CR into an installed kubevirt-ts (CRDs, RBAC, the
 * PriorityClass, virt-api with its APIService and webhooks, virt-controller, virt-handler, and
 * the certificates they use, issued and renewed), keeps it as rendered, updates it when the CR
 * changes, and removes it when the CR is deleted. Leader-elected: any number of replicas, one
 * acts. Its own image ($VIRT_OPERATOR_IMAGE) says which version it installs.
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
import { addKubeVirtController } from "./kubevirt/kubevirt-controller.js";
import { OPERATOR_IMAGE_ENV, operatorIdentityFromImage } from "./operator-image.js";
import type { OperatorIdentity } from "./strategy/install-strategy.js";
import { renderStrategy } from "./strategy/render-strategy.js";

const options = parseOrExit(() => parseCliOptions(process.argv.slice(2), process.env));
let identity: OperatorIdentity;
try {
  identity = operatorIdentityFromImage(process.env[OPERATOR_IMAGE_ENV], options.namespace);
} catch (error) {
  process.stderr.write(`virt-operator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const log = componentLogger({ level: options.logLevel });
const manager = new Manager({
  name: "virt-operator",
  kubeConfig: loadKubeConfig(options.kubeconfig, process.env),
  log,
  leaderElection: {
    namespace: options.namespace,
    name: "virt-operator",
    ...options.leaderElection,
  },
  health: { host: options.address, port: options.healthPort },
  // KubeVirt's https://POD:8443/metrics, with the certificate this operator issues for itself
  // (certificates/issued-certificates.ts) before it installs anything.
  metrics: {
    host: options.address,
    port: options.metricsPort,
    secret: { namespace: options.namespace, name: CERTIFICATE_SECRETS.operatorServer },
  },
  clock: systemClock,
});
addKubeVirtController(manager, { identity, renderStrategy, clock: systemClock });
stopOnSignals(manager, log);
await manager.start();
log.info({ health: manager.healthUrl, ...identity }, "virt-operator started");
const exit = await manager.done;
process.exitCode = exit.reason === "stopped" ? 0 : 1;
