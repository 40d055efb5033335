import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import type { EndpointSlice, Service } from "../controllers/kinds.js";
import { parseCidr } from "../node-agent/network/ipv4.js";
import { renderRuleset } from "./nft-ruleset.js";
import { serviceRules } from "./service-rules.js";

const POD_RANGE = parseCidr("10.244.0.0/24");

const web: Service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name: "web" },
  spec: {
    type: "NodePort",
    clusterIP: "10.96.0.20",
    ports: [
      { name: "http", port: 80, nodePort: 30080 },
      { name: "dns", port: 53, protocol: "UDP" },
      { name: "sctp", port: 99, protocol: "SCTP" },
    ],
  },
};
const headless: Service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name: "db" },
  spec: { clusterIP: "None", ports: [{ port: 5432 }] },
};
const slice: EndpointSlice = {
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name: "web-x", labels: { "kubernetes.io/service-name": "web" } },
  addressType: "IPv4",
  ports: [
    { name: "http", port: 8080 },
    { name: "dns", port: 5353, protocol: "UDP" },
  ],
  endpoints: [
    { addresses: ["10.244.0.9"], conditions: { ready: true } },
    { addresses: ["10.244.0.10"] },
    { addresses: ["10.244.0.11"], conditions: { ready: false } },
    { addresses: ["10.244.0.12"], conditions: { ready: true, terminating: true } },
  ],
};

describe("Service rules", () => {
  test("each TCP and UDP port of a Service with an address, to its ready endpoints' target ports", () => {
    assert.deepEqual(serviceRules([web, headless], [slice], POD_RANGE), [
      {
        id: "default/web:dns",
        protocol: "udp",
        clusterIP: "10.96.0.20",
        port: 53,
        endpoints: [
          { ip: "10.244.0.9", port: 5353 },
          { ip: "10.244.0.10", port: 5353 },
        ],
      },
      {
        id: "default/web:http",
        protocol: "tcp",
        clusterIP: "10.96.0.20",
        port: 80,
        nodePort: 30080,
        endpoints: [
          { ip: "10.244.0.9", port: 8080 },
          { ip: "10.244.0.10", port: 8080 },
        ],
      },
    ]);
  });

  test("the rendered ruleset is what nft accepts, for a pod and for the node", () => {
    const rules = serviceRules([web], [slice], POD_RANGE);
    const pod = renderRuleset({
      table: "kubevirt-ts-check",
      place: { kind: "pod" },
      serviceCidr: "10.96.0.0/12",
      nodeAddresses: ["10.244.0.1"],
      rules,
    });
    assert.match(
      pod,
      /ip daddr 10\.96\.0\.20 tcp dport 80 dnat ip to numgen random mod 2 map \{ 0 : 10\.244\.0\.9 \. 8080, 1 : 10\.244\.0\.10 \. 8080 \}/,
    );
    assert.match(pod, /ip daddr \{ 10\.244\.0\.1 \} tcp dport 30080 dnat/);
    assert.match(pod, /type nat hook prerouting/);
    const node = renderRuleset({
      table: "kubevirt-ts-check",
      place: { kind: "node", bridge: "kvts0", podCidr: "10.244.0.0/24" },
      serviceCidr: "10.96.0.0/12",
      nodeAddresses: ["10.244.0.1", "192.0.2.5"],
      rules: [
        {
          id: "default/one",
          protocol: "tcp",
          clusterIP: "10.96.0.30",
          port: 443,
          endpoints: [{ ip: "10.244.0.1", port: 443 }],
        },
      ],
    });
    assert.match(node, /dnat ip to 10\.244\.0\.1:443/);
    assert.doesNotMatch(node, /prerouting/, "the node forwards nothing");
    if (process.getuid?.() !== 0) return;
    // `nft -c` parses and checks against the kernel without changing anything.
    for (const script of [pod, node]) execFileSync("nft", ["-c", "-f", "-"], { input: script });
  });

  test("what a namespace user could slip into the node's script is left out: odd addresses, ports, endpoints off the node", () => {
    const hostile: EndpointSlice = {
      ...slice,
      ports: [{ name: "http", port: 8080 }],
      endpoints: [
        { addresses: ["10.244.0.9; flush ruleset"] },
        { addresses: ["198.51.100.7"] },
        { addresses: ["10.244.0.20"] },
      ],
    };
    const [http] = serviceRules(
      [{ ...web, spec: { ...web.spec, ports: [{ name: "http", port: 80 }] } }],
      [hostile],
      POD_RANGE,
    );
    assert.deepEqual(http?.endpoints, [{ ip: "10.244.0.20", port: 8080 }]);
    const odd: Service = { ...web, spec: { clusterIP: "10.96.0.9\n", ports: [{ name: "x", port: 70000 }] } };
    assert.deepEqual(serviceRules([odd], [], POD_RANGE), []);
  });
});
