import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { Manager, type ManagerExit } from "../../runtime/index.js";
import { type EndpointSlice, endpointSliceKind, type Service, serviceKind } from "../controllers/kinds.js";
import { parseCidr } from "../node-agent/network/ipv4.js";
import { ServiceDataplane, type ServiceDataplaneOptions } from "./service-dataplane.js";
import { serviceRules } from "./service-rules.js";

export interface ServiceProxyOptions extends Omit<ServiceDataplaneOptions, "log"> {
  kubeConfig: KubeConfig;
  log: Logger;
}

export interface RunningServiceProxy {
  readonly done: Promise<ManagerExit>;
  /** Programs a pod's new network namespace; the node agent calls it before the pod's containers start. */
  preparePodNetwork(netns: string): Promise<void>;
  stop(): Promise<void>;
}

/** The one queue key: the whole ruleset is rendered from the whole cache. */
const RULESET_KEY = "ruleset";
/** Pods adopted from an earlier run, or made while the proxy was down, are found by this resync. */
const RESYNC_MS = 10_000;

/**
 * The dev cluster's kube-proxy for its local node: Services and EndpointSlices in, nftables
 * rules out (service-dataplane.ts). One controller with one key, so a burst of endpoint changes
 * costs one ruleset.
 */
export async function startServiceProxy(options: ServiceProxyOptions): Promise<RunningServiceProxy> {
  const { kubeConfig, log, ...dataplaneOptions } = options;
  const dataplane = new ServiceDataplane({ ...dataplaneOptions, log });
  const endpointRange = parseCidr(dataplaneOptions.podCidr);
  const manager = new Manager({ name: "service-proxy", kubeConfig, log });
  const services = manager.informer<Service>(serviceKind);
  const slices = manager.informer<EndpointSlice>(endpointSliceKind);
  const controller = manager.controller({
    name: "service-proxy",
    workers: 1,
    reconcile: async () => {
      await dataplane.sync(serviceRules(services.list(), slices.list(), endpointRange));
      return { requeueAfterMs: RESYNC_MS };
    },
  });
  controller.watch(services, () => [RULESET_KEY]);
  controller.watch(slices, () => [RULESET_KEY]);
  await manager.start();
  controller.enqueue(RULESET_KEY);
  return {
    done: manager.done,
    preparePodNetwork: (netns) => dataplane.prepare(netns),
    stop: async () => {
      await manager.stop();
      await dataplane
        .close()
        .catch((error: unknown) => log.warn({ err: error }, "cannot remove the node's Service rules"));
    },
  };
}
