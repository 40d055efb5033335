#!/usr/bin/env -S UV_THREADPOOL_SIZE=8 node
/**
 * virt-handler's process: flags say where things are (configuration comes from the KubeVirt CR
 * in --namespace); virt-handler.ts wires the node agent.
 *
 * libvirt's event pump holds one libuv pool thread for the life of the process: the shebang sets
 * UV_THREADPOOL_SIZE=8 when the file is executed directly. Setting the variable from inside an ES
 * module is too late: Node's ESM loader has started the pool by then.
 */
import { hostname } from "node:os";
import { componentLogger, loadKubeConfig, parseOrExit, stopOnSignals } from "../runtime/index.js";
import { parseCommandLine } from "./cli-options.js";
import { type RunningVirtHandler, startVirtHandler } from "./virt-handler.js";

const flags = parseOrExit(() => parseCommandLine(process.argv));
const log = componentLogger({ level: flags.logLevel });
const pool = Number(process.env.UV_THREADPOOL_SIZE ?? "4");
if (pool < 8) log.warn({ UV_THREADPOOL_SIZE: pool }, "start virt-handler with UV_THREADPOOL_SIZE=8");
let handler: RunningVirtHandler;
try {
  handler = await startVirtHandler({
    nodeName: flags.nodeName ?? process.env.NODE_NAME ?? hostname(),
    libvirtUri: flags.libvirtUri,
    kubeConfig: loadKubeConfig(flags.kubeconfig, process.env),
    namespace: flags.namespace,
    // Not per node: one handler per node, and a VM's sockets must fit 107 bytes whatever the
    // node's name (domain/socket-paths.ts).
    stateDir: flags.stateDir ?? "/var/lib/kubevirt-ts/vms",
    imageStore: flags.imageStore,
    imageCache: { directory: flags.imageCache, maxBytes: flags.imageCacheSize },
    registryHosts: flags.registryHosts,
    registriesConf: flags.registriesConf,
    kubeletPodsDir: flags.kubeletPodsDir,
    listen: { host: flags.address, port: flags.healthPort },
    metrics: { host: flags.address, port: flags.metricsPort },
    console: { host: flags.address, port: flags.consolePort },
    heartbeatIntervalMs: flags.heartbeatInterval * 1000,
    log,
  });
} catch (error) {
  // A kubeconfig that cannot be read, a state directory that cannot be made: the reason, not a stack.
  process.stderr.write(`virt-handler: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
log.info({ health: handler.manager.healthUrl }, "virt-handler started");
stopOnSignals(handler, log);
const exit = await handler.done;
process.exitCode = exit.reason === "stopped" ? 0 : 1;
