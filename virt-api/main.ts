#!/usr/bin/env node
/**
 * virt-api: the subresources.kubevirt.io/v1 API server behind the API server's aggregation layer
 * (start/stop/restart, pause/unpause, console and vnc proxied to virt-handler) and KubeVirt's
 * admission webhooks, over HTTPS with the certificate virt-operator issues. Stateless: any number
 * of replicas serve side by side. Flags say where things are; configuration is the KubeVirt CR's.
 */
import { Registry } from "prom-client";
import { componentLogger, KubeClient, loadKubeConfig, parseOrExit, stopOnSignals } from "../runtime/index.js";
import { parseCliOptions } from "./cli-options.js";
import { type RunningVirtApi, startVirtApi } from "./virt-api.js";

const options = parseOrExit(() => parseCliOptions(process.argv.slice(2), process.env));
const log = componentLogger({ level: options.logLevel }).child({ component: "virt-api" });
const client = KubeClient.fromKubeConfig(loadKubeConfig(options.kubeconfig, process.env), {
  fieldManager: "virt-api",
  userAgent: "virt-api",
});
const stopping = new AbortController();
let running: RunningVirtApi | undefined;
stopOnSignals(
  {
    async stop() {
      stopping.abort();
      await running?.stop();
      client.close();
    },
  },
  log,
);
running = await startVirtApi(
  {
    client,
    namespace: options.namespace,
    address: options.address,
    port: options.port,
    consoleServerPort: options.consoleServerPort,
    registry: new Registry(),
    log,
  },
  stopping.signal,
);
if (running && stopping.signal.aborted) {
  // The signal came while the server was starting: stop() found nothing to stop yet.
  await running.stop();
  client.close();
} else if (running) log.info({ url: running.url, namespace: options.namespace }, "virt-api started");
else client.close();
