import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Pod, Service } from "../kinds.js";
import { desiredSlices, maxEndpointsPerSlice } from "./endpoint-slices.js";
import { endpointSubsets } from "./endpoint-subsets.js";

function service(spec: Partial<NonNullable<Service["spec"]>> = {}): Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web", namespace: "ns", uid: "svc-uid" },
    spec: {
      selector: { app: "web" },
      clusterIP: "10.96.0.10",
      ports: [{ name: "http", port: 80, targetPort: "http" }],
      ...spec,
    },
  };
}

function pod(
  name: string,
  ip: string | undefined,
  options: { ready?: boolean; port?: number; deleting?: boolean; phase?: "Running" | "Succeeded" } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "ns",
      uid: `${name}-uid`,
      labels: { app: "web" },
      ...(options.deleting ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}),
    },
    spec: {
      nodeName: "node-a",
      containers: [{ name: "c", ports: [{ name: "http", containerPort: options.port ?? 8080 }] }],
    },
    status: {
      phase: options.phase ?? "Running",
      ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
      conditions: [{ type: "Ready", status: options.ready === false ? "False" : "True" }],
    },
  };
}

describe("Endpoints subsets", () => {
  test("ready pods are addresses, not-ready ones notReadyAddresses; named target ports resolve per pod", () => {
    const subsets = endpointSubsets(service(), [
      pod("b", "10.0.0.10"),
      pod("a", "10.0.0.9"),
      pod("c", "10.0.0.11", { ready: false }),
      pod("other-port", "10.0.0.12", { port: 9090 }),
      pod("no-ip", undefined),
      pod("leaving", "10.0.0.13", { deleting: true }),
      pod("done", "10.0.0.14", { phase: "Succeeded" }),
    ]);
    assert.equal(subsets.length, 2);
    const [main, other] = subsets;
    assert.deepEqual(
      main?.addresses?.map((a) => a.ip),
      ["10.0.0.9", "10.0.0.10"],
    );
    assert.deepEqual(
      main?.notReadyAddresses?.map((a) => a.ip),
      ["10.0.0.11"],
    );
    assert.deepEqual(main?.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
    assert.deepEqual(main?.addresses?.[0], {
      ip: "10.0.0.9",
      nodeName: "node-a",
      targetRef: { kind: "Pod", namespace: "ns", name: "a", uid: "a-uid" },
    });
    assert.deepEqual(other?.ports, [{ name: "http", port: 9090, protocol: "TCP" }]);
  });

  test("publishNotReadyAddresses lists everyone as ready", () => {
    const [subset] = endpointSubsets(service({ publishNotReadyAddresses: true }), [
      pod("a", "10.0.0.1", { ready: false }),
    ]);
    assert.deepEqual(
      subset?.addresses?.map((a) => a.ip),
      ["10.0.0.1"],
    );
    assert.equal(subset?.notReadyAddresses, undefined);
  });
});

describe("EndpointSlices", () => {
  test("terminating pods stay, marked; ready means serving and not terminating", () => {
    const [slice, ...rest] = desiredSlices(service(), [
      pod("a", "10.0.0.1"),
      pod("b", "10.0.0.2", { ready: false }),
      pod("c", "10.0.0.3", { deleting: true }),
    ]);
    assert.equal(rest.length, 0);
    assert.equal(slice?.content.addressType, "IPv4");
    assert.deepEqual(slice?.content.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
    assert.deepEqual(
      slice?.content.endpoints.map((e) => [e.addresses[0], e.conditions]),
      [
        ["10.0.0.1", { ready: true, serving: true, terminating: false }],
        ["10.0.0.2", { ready: false, serving: false, terminating: false }],
        ["10.0.0.3", { ready: false, serving: true, terminating: true }],
      ],
    );
  });

  test("a Service without endpoints gets one empty slice; large ones are split", () => {
    const [placeholder, ...none] = desiredSlices(service(), []);
    assert.equal(none.length, 0);
    assert.deepEqual(placeholder?.content, { addressType: "IPv4", ports: [], endpoints: [] });
    const many = Array.from({ length: maxEndpointsPerSlice + 5 }, (_, i) =>
      pod(`p${i}`, `10.1.${Math.floor(i / 200)}.${(i % 200) + 1}`),
    );
    const slices = desiredSlices(service(), many);
    assert.deepEqual(
      slices.map((s) => s.content.endpoints.length),
      [maxEndpointsPerSlice, 5],
    );
    assert.equal(slices[0]?.group, slices[1]?.group);
  });
});
