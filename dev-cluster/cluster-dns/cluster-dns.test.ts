import assert from "node:assert/strict";
import { Resolver } from "node:dns/promises";
import { after, before, describe, test } from "node:test";
import pino from "pino";
import type { EndpointSlice, Service } from "../controllers/kinds.js";
import { ClusterZone } from "./cluster-zone.js";
import { type RunningDnsServer, serveDns } from "./dns-server.js";

const services: Service[] = [
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "web", name: "front" },
    spec: { clusterIP: "10.96.0.20", ports: [{ name: "http", port: 80 }] },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "web", name: "vms" },
    spec: { clusterIP: "None", ports: [{ name: "ssh", port: 22, protocol: "TCP" }] },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "web", name: "outside" },
    spec: { type: "ExternalName", externalName: "example.org" },
  },
];
const slices: EndpointSlice[] = [
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { namespace: "web", name: "vms-1", labels: { "kubernetes.io/service-name": "vms" } },
    addressType: "IPv4",
    endpoints: [
      { addresses: ["10.244.0.7"], hostname: "db", conditions: { ready: true } },
      { addresses: ["10.244.0.8"], conditions: {} },
      { addresses: ["10.244.0.9"], hostname: "down", conditions: { ready: false } },
    ],
    ports: [{ name: "ssh", port: 22 }],
  },
];

const zone = new ClusterZone("cluster.local", {
  service: (namespace, name) =>
    services.find((service) => service.metadata?.namespace === namespace && service.metadata?.name === name),
  endpointSlices: (namespace, serviceName) =>
    slices.filter(
      (slice) =>
        slice.metadata?.namespace === namespace &&
        slice.metadata?.labels?.["kubernetes.io/service-name"] === serviceName,
    ),
});

describe("the cluster DNS server, asked by Node's resolver over UDP and TCP", () => {
  let server: RunningDnsServer;
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  before(async () => {
    server = await serveDns(zone, { address: "127.0.0.1", port: 0, log: pino({ level: "silent" }) });
    resolver.setServers([`127.0.0.1:${server.port}`]);
  });
  after(() => server.close());

  test("a Service's name is its ClusterIP; a headless one's, its ready endpoints", async () => {
    assert.deepEqual(await resolver.resolve4("front.web.svc.cluster.local"), ["10.96.0.20"]);
    assert.deepEqual((await resolver.resolve4("VMS.web.svc.cluster.local")).sort(), [
      "10.244.0.7",
      "10.244.0.8",
    ]);
  });

  test("a pod's hostname under a headless Service's subdomain; a not-ready one does not exist", async () => {
    assert.deepEqual(await resolver.resolve4("db.vms.web.svc.cluster.local"), ["10.244.0.7"]);
    await assert.rejects(resolver.resolve4("down.vms.web.svc.cluster.local"), { code: "ENOTFOUND" });
  });

  test("SRV of a named port, pod A records, ExternalName as CNAME", async () => {
    const srv = await resolver.resolveSrv("_ssh._tcp.vms.web.svc.cluster.local");
    assert.deepEqual(srv.map((record) => `${record.name}:${record.port}`).sort(), [
      "10-244-0-8.vms.web.svc.cluster.local:22",
      "db.vms.web.svc.cluster.local:22",
    ]);
    assert.deepEqual(await resolver.resolve4("10-1-2-3.web.pod.cluster.local"), ["10.1.2.3"]);
    assert.deepEqual(await resolver.resolveCname("outside.web.svc.cluster.local"), ["example.org"]);
  });

  test("an existing name without the asked type is empty; an unknown one NXDOMAIN, outside the zone too", async () => {
    await assert.rejects(resolver.resolve6("front.web.svc.cluster.local"), { code: "ENODATA" });
    await assert.rejects(resolver.resolve4("nothing.web.svc.cluster.local"), { code: "ENOTFOUND" });
    await assert.rejects(resolver.resolve4("example.org"), { code: "ENOTFOUND" });
  });

  test("an answer too long for UDP is truncated and read again over TCP", async () => {
    const many = Array.from({ length: 60 }, (_, index) => ({
      addresses: [`10.244.1.${index + 1}`],
      conditions: { ready: true },
    }));
    services.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { namespace: "big", name: "wide" },
      spec: { clusterIP: "None" },
    });
    slices.push({
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: { namespace: "big", name: "wide-1", labels: { "kubernetes.io/service-name": "wide" } },
      addressType: "IPv4",
      endpoints: many,
    });
    assert.equal((await resolver.resolve4("wide.big.svc.cluster.local")).length, 60);
  });
});
