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
  exitCodeOf,
  leaderElectedManager,
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
// /metrics with the certificate this operator issues for itself
// (certificates/issued-certificates.ts) before it installs anything.
const manager = leaderElectedManager({
  name: "virt-operator",
  namespace: options.namespace,
  metricsSecret: CERTIFICATE_SECRETS.operatorServer,
  flags: options,
  log,
  env: process.env,
});
addKubeVirtController(manager, { identity, renderStrategy, clock: systemClock });
stopOnSignals(manager, log);
await manager.start();
log.info({ health: manager.healthUrl, ...identity }, "virt-operator started");
process.exitCode = exitCodeOf(await manager.done);
