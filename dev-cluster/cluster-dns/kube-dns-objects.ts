import type { ResourceClient } from "../../runtime/index.js";
import type { EndpointSlice, Endpoints, Service } from "../controllers/kinds.js";

export const KUBE_DNS = { namespace: "kube-system", name: "kube-dns" } as const;
const FIELD_MANAGER_FORCE = { force: true } as const;
const PORTS = [
  { name: "dns", port: 53, protocol: "UDP" },
  { name: "dns-tcp", port: 53, protocol: "TCP" },
] as const;

export interface KubeDnsClients {
  services: ResourceClient<Service>;
  endpoints: ResourceClient<Endpoints>;
  slices: ResourceClient<EndpointSlice>;
}

/**
 * The `kube-system/kube-dns` Service every cluster has, at the service range's tenth address
 * (kubeadm's rule), with the node's DNS server as its only endpoint. It has no selector — the
 * server is part of the dev cluster, not a pod — so its Endpoints and EndpointSlice are written
 * here, as the API server writes the `kubernetes` Service's. Applied at every start: the
 * objects follow the bridge address of the current run.
 */
export async function applyKubeDnsObjects(
  clients: KubeDnsClients,
  clusterIP: string,
  server: { address: string; port: number },
): Promise<void> {
  const metadata = {
    ...KUBE_DNS,
    labels: {
      "k8s-app": "kube-dns",
      "kubernetes.io/name": "CoreDNS",
      "kubernetes.io/cluster-service": "true",
    },
  };
  await clients.services.apply(
    {
      apiVersion: "v1",
      kind: "Service",
      metadata,
      spec: {
        type: "ClusterIP",
        clusterIP,
        ports: PORTS.map((port) => ({ ...port, targetPort: server.port })),
      },
    },
    FIELD_MANAGER_FORCE,
  );
  const ports = PORTS.map((port) => ({ ...port, port: server.port }));
  await clients.endpoints.apply(
    {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: {
        ...metadata,
        labels: { ...metadata.labels, "endpointslice.kubernetes.io/skip-mirror": "true" },
      },
      subsets: [{ addresses: [{ ip: server.address }], ports }],
    },
    FIELD_MANAGER_FORCE,
  );
  await clients.slices.apply(
    {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: {
        namespace: KUBE_DNS.namespace,
        name: KUBE_DNS.name,
        labels: {
          "kubernetes.io/service-name": KUBE_DNS.name,
          "endpointslice.kubernetes.io/managed-by": "dev-cluster.kubevirt-ts.io",
        },
      },
      addressType: "IPv4",
      endpoints: [{ addresses: [server.address], conditions: { ready: true } }],
      ports,
    },
    FIELD_MANAGER_FORCE,
  );
}
