import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { Manager, type ManagerExit } from "../../runtime/index.js";
import {
  type EndpointSlice,
  endpointSliceKind,
  endpointsKind,
  type Service,
  serviceKind,
} from "../controllers/kinds.js";
import { ClusterZone } from "./cluster-zone.js";
import { serveDns } from "./dns-server.js";
import { applyKubeDnsObjects } from "./kube-dns-objects.js";

export interface ClusterDnsOptions {
  kubeConfig: KubeConfig;
  /** The cluster domain, e.g. cluster.local (kubelet's --cluster-domain). */
  domain: string;
  /** kube-dns's ClusterIP: what pods' resolv.conf names (kubelet's --cluster-dns). */
  clusterIP: string;
  /** Where the server listens: the node's bridge address, which pods and VMs reach. */
  listenAddress: string;
  /** Default 53; 0 picks a free port (tests). */
  port?: number;
  log: Logger;
}

export interface RunningClusterDns {
  readonly done: Promise<ManagerExit>;
  readonly port: number;
  stop(): Promise<void>;
}

const SERVICE_NAME_LABEL = "kubernetes.io/service-name";

/** The dev cluster's CoreDNS: the cluster zone (cluster-zone.ts) served from the API's caches. */
export async function startClusterDns(options: ClusterDnsOptions): Promise<RunningClusterDns> {
  const { log } = options;
  const manager = new Manager({ name: "cluster-dns", kubeConfig: options.kubeConfig, log });
  const services = manager.informer<Service>(serviceKind);
  const slices = manager.informer<EndpointSlice>(endpointSliceKind);
  await manager.start();
  await Promise.all([services.waitForSync(), slices.waitForSync()]);
  const zone = new ClusterZone(options.domain, {
    service: (namespace, name) => services.get({ namespace, name }),
    endpointSlices: (namespace, serviceName) =>
      slices
        .list({ namespace })
        .filter((slice) => slice.metadata?.labels?.[SERVICE_NAME_LABEL] === serviceName),
  });
  const server = await serveDns(zone, { address: options.listenAddress, port: options.port ?? 53, log });
  try {
    await applyKubeDnsObjects(
      {
        services: manager.client.resource(serviceKind),
        endpoints: manager.client.resource(endpointsKind),
        slices: manager.client.resource(endpointSliceKind),
      },
      options.clusterIP,
      server,
    );
  } catch (error) {
    await server.close();
    await manager.stop();
    throw new Error("cannot publish the kube-dns Service", { cause: error });
  }
  log.info(
    { address: `${server.address}:${server.port}`, clusterIP: options.clusterIP },
    "cluster DNS serving",
  );
  return {
    done: manager.done,
    port: server.port,
    stop: async () => {
      await server.close();
      await manager.stop();
    },
  };
}
