import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import {
  DEFAULT_NODE_PORT_RANGE,
  firstFree,
  ipv4ToNumber,
  kubernetesServiceIp,
  numberToIpv4,
  parseIpv4Cidr,
} from "./address-ranges.js";
import { type AllocationPools, type AllocationState, allocateServiceFields } from "./service-allocation.js";
import { ServiceAllocator } from "./service-allocator.js";

const pools: AllocationPools = {
  serviceRange: parseIpv4Cidr("10.96.0.0/12"),
  nodePorts: DEFAULT_NODE_PORT_RANGE,
};
const ip = (address: string): number => ipv4ToNumber(address) ?? Number.NaN;

function allocated(
  spec: JsonObject,
  state: Partial<AllocationState> = {},
  range: AllocationPools = pools,
): JsonObject {
  const service: JsonObject = { metadata: { name: "svc" }, spec: structuredClone(spec) };
  allocateServiceFields(service, range, {
    usedIps: new Set(),
    usedNodePorts: new Set(),
    old: undefined,
    ...state,
  });
  return service.spec as JsonObject;
}

function refusal(run: () => unknown): { code: number; message: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail("expected an ApiError");
}

const port = (name: string, extra: JsonObject = {}): JsonObject => ({
  name,
  port: 80,
  protocol: "TCP",
  ...extra,
});

describe("address ranges", () => {
  test("IPv4 addresses and CIDRs", () => {
    assert.equal(ipv4ToNumber("10.96.0.1"), 0x0a600001);
    assert.equal(numberToIpv4(0xfffffffe), "255.255.255.254");
    assert.equal(ipv4ToNumber("::1"), undefined);
    assert.deepEqual(parseIpv4Cidr("10.96.0.0/12"), {
      cidr: "10.96.0.0/12",
      base: 0x0a600000,
      size: 2 ** 20,
    });
    assert.equal(kubernetesServiceIp("10.96.0.0/12"), "10.96.0.1");
    assert.equal(kubernetesServiceIp("172.20.0.0/16"), "172.20.0.1");
    for (const bad of ["10.96.0.0", "10.96.0.1/12", "10.96.0.0/31", "fd00::/108", "10.96.0.0/x"]) {
      assert.throws(() => parseIpv4Cidr(bad), /service CIDR/, bad);
    }
  });

  test("firstFree tries above the static band first, then inside it", () => {
    assert.equal(firstFree(1, 100, 10, new Set()), 11);
    assert.equal(firstFree(1, 100, 10, new Set([11, 12])), 13);
    const upperTaken = new Set(Array.from({ length: 90 }, (_, i) => i + 11));
    assert.equal(firstFree(1, 100, 10, upperTaken), 1);
    assert.equal(firstFree(1, 3, 10, new Set([1])), 2, "a range smaller than the band");
    assert.equal(firstFree(1, 2, 0, new Set([1, 2])), undefined);
  });
});

describe("allocateServiceFields on create", () => {
  test("a ClusterIP Service gets the first free address above the static band, single-stack IPv4", () => {
    assert.deepEqual(allocated({ type: "ClusterIP", ports: [port("http")] }), {
      type: "ClusterIP",
      ports: [port("http")],
      clusterIP: "10.96.1.1",
      clusterIPs: ["10.96.1.1"],
      ipFamilyPolicy: "SingleStack",
      ipFamilies: ["IPv4"],
    });
    const next = allocated(
      { ports: [port("http")] },
      { usedIps: new Set([ip("10.96.1.1"), ip("10.96.1.2")]) },
    );
    assert.equal(next.clusterIP, "10.96.1.3", "no type means ClusterIP; used addresses are skipped");
  });

  test("a requested address is kept when free and refused when taken or outside the range", () => {
    assert.equal(allocated({ clusterIP: "10.96.0.10" }).clusterIP, "10.96.0.10");
    assert.deepEqual(allocated({ clusterIPs: ["10.96.0.11"] }).clusterIP, "10.96.0.11");
    const cases: [JsonObject, Set<number>, string][] = [
      [
        { clusterIP: "10.96.0.10" },
        new Set([ip("10.96.0.10")]),
        'Service "svc" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
      ],
      [
        { clusterIP: "10.0.0.1" },
        new Set(),
        'Service "svc" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
      ],
      [{ clusterIP: "10.96.0.0" }, new Set(), "not in the valid range"],
      [{ clusterIP: "10.111.255.255" }, new Set(), "not in the valid range"],
      [
        { clusterIP: "banana" },
        new Set(),
        'spec.clusterIPs[0]: Invalid value: "banana": must be a valid IP address',
      ],
      [
        { clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.11"] },
        new Set(),
        "must match `clusterIP` when both are specified",
      ],
    ];
    for (const [spec, usedIps, message] of cases) {
      const { code, message: actual } = refusal(() => allocated(spec, { usedIps }));
      assert.equal(code, 422);
      assert.ok(actual.includes(message), `${JSON.stringify(spec)}: ${actual}`);
    }
  });

  test("headless and ExternalName Services get no address", () => {
    assert.deepEqual(allocated({ clusterIP: "None", selector: { app: "a" } }), {
      clusterIP: "None",
      clusterIPs: ["None"],
      selector: { app: "a" },
      ipFamilyPolicy: "SingleStack",
      ipFamilies: ["IPv4"],
    });
    assert.deepEqual(allocated({ clusterIP: "None" }), { clusterIP: "None", clusterIPs: ["None"] });
    assert.deepEqual(allocated({ type: "ExternalName", externalName: "db.example.com" }), {
      type: "ExternalName",
      externalName: "db.example.com",
    });
  });

  test("NodePort and LoadBalancer Services get node ports; requested ones are checked", () => {
    const spec = allocated({ type: "NodePort", ports: [port("a"), port("b", { nodePort: 30080 })] });
    assert.deepEqual(
      (spec.ports as JsonObject[]).map((p) => p.nodePort),
      [30086, 30080],
    );
    const busy = allocated({ type: "NodePort", ports: [port("a")] }, { usedNodePorts: new Set([30086]) });
    assert.equal((busy.ports as JsonObject[])[0]?.nodePort, 30087);
    const sameNumberTwoProtocols = allocated({
      type: "NodePort",
      ports: [port("tcp", { nodePort: 30053 }), port("udp", { nodePort: 30053, protocol: "UDP" })],
    });
    assert.equal((sameNumberTwoProtocols.ports as JsonObject[])[1]?.nodePort, 30053);
    const lb = allocated({ type: "LoadBalancer", externalTrafficPolicy: "Local", ports: [port("a")] });
    assert.deepEqual([(lb.ports as JsonObject[])[0]?.nodePort, lb.healthCheckNodePort], [30086, 30087]);
    const noNodePorts = allocated({
      type: "LoadBalancer",
      allocateLoadBalancerNodePorts: false,
      ports: [port("a")],
    });
    assert.equal((noNodePorts.ports as JsonObject[])[0]?.nodePort, undefined);

    const refusals: [JsonObject, Set<number>, string][] = [
      [
        port("a", { nodePort: 30080 }),
        new Set([30080]),
        "spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated",
      ],
      [
        port("a", { nodePort: 80 }),
        new Set(),
        "spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767",
      ],
    ];
    for (const [requested, usedNodePorts, message] of refusals) {
      const { code, message: actual } = refusal(() =>
        allocated({ type: "NodePort", ports: [requested] }, { usedNodePorts }),
      );
      assert.equal(code, 422);
      assert.ok(actual.endsWith(message), actual);
    }
    const duplicate = refusal(() =>
      allocated({
        type: "NodePort",
        ports: [port("a", { nodePort: 30001 }), port("b", { nodePort: 30001 })],
      }),
    );
    assert.match(duplicate.message, /spec.ports\[1\].nodePort: Duplicate value: 30001/);
  });

  test("a full range is a 500, as in kube", () => {
    const tiny = { ...pools, serviceRange: parseIpv4Cidr("10.0.0.0/30") };
    assert.equal(allocated({}, { usedIps: new Set([ip("10.0.0.1")]) }, tiny).clusterIP, "10.0.0.2");
    const full = refusal(() => allocated({}, { usedIps: new Set([ip("10.0.0.1"), ip("10.0.0.2")]) }, tiny));
    assert.deepEqual(full, { code: 500, message: "failed to allocate a serviceIP: range is full" });
  });
});

describe("allocateServiceFields on update", () => {
  const old: JsonObject = {
    metadata: { name: "svc" },
    spec: {
      type: "NodePort",
      clusterIP: "10.96.1.7",
      clusterIPs: ["10.96.1.7"],
      ports: [port("a", { nodePort: 30100 }), port("b", { nodePort: 30101 })],
    },
  };

  test("allocated values the client left out are carried over (ports by name), nothing new is allocated", () => {
    const spec = allocated({ type: "NodePort", ports: [port("b"), port("c"), port("a")] }, { old });
    assert.equal(spec.clusterIP, "10.96.1.7");
    assert.deepEqual(spec.clusterIPs, ["10.96.1.7"]);
    assert.deepEqual(
      (spec.ports as JsonObject[]).map((p) => [p.name, p.nodePort]),
      [
        ["b", 30101],
        ["c", 30086],
        ["a", 30100],
      ],
    );
  });

  test("a changed clusterIP alone drags clusterIPs along, for validation to judge the change", () => {
    const spec = allocated({ type: "NodePort", clusterIP: "10.96.0.99", clusterIPs: ["10.96.1.7"] }, { old });
    assert.deepEqual([spec.clusterIP, spec.clusterIPs], ["10.96.0.99", ["10.96.0.99"]]);
  });

  test("a type change releases what the new type does not need, unless the client changed it", () => {
    const toClusterIp = allocated({ type: "ClusterIP", ports: [port("a", { nodePort: 30100 })] }, { old });
    assert.equal((toClusterIp.ports as JsonObject[])[0]?.nodePort, undefined);
    assert.equal(toClusterIp.clusterIP, "10.96.1.7");
    const toExternal = allocated(
      { type: "ExternalName", externalName: "x.example", clusterIP: "10.96.1.7", ports: [] },
      { old },
    );
    assert.equal(toExternal.clusterIP, undefined);
    assert.equal(toExternal.clusterIPs, undefined);
    const fromExternal = allocated(
      { type: "ClusterIP", ports: [port("a")] },
      { old: { metadata: { name: "svc" }, spec: { type: "ExternalName", externalName: "x.example" } } },
    );
    assert.equal(fromExternal.clusterIP, "10.96.1.1");
  });
});

describe("ServiceAllocator", () => {
  const stored = (namespace: string, name: string, spec: JsonObject): JsonObject => ({
    metadata: { namespace, name },
    spec,
  });
  const services = [
    stored("default", "kubernetes", { clusterIP: "10.96.0.1", ports: [port("https")] }),
    stored("a", "web", {
      clusterIP: "10.96.1.1",
      type: "NodePort",
      ports: [port("http", { nodePort: 30086 })],
    }),
    stored("b", "web", {
      clusterIP: "10.96.1.2",
      type: "NodePort",
      ports: [port("http", { nodePort: 30087 })],
    }),
  ];
  const allocator = new ServiceAllocator(
    () => structuredClone(services),
    "10.96.0.0/12",
    DEFAULT_NODE_PORT_RANGE,
  );

  test("what other Services hold is taken; a Service's own values are its own", () => {
    const fresh: JsonObject = {
      metadata: { namespace: "a", name: "api" },
      spec: { type: "NodePort", ports: [port("x")] },
    };
    allocator.allocate(fresh);
    assert.equal((fresh.spec as JsonObject).clusterIP, "10.96.1.3");
    assert.equal(((fresh.spec as JsonObject).ports as JsonObject[])[0]?.nodePort, 30088);
    const update: JsonObject = {
      metadata: { namespace: "b", name: "web" },
      spec: { type: "NodePort", ports: [port("http", { nodePort: 30087 })] },
    };
    allocator.allocate(update);
    assert.equal((update.spec as JsonObject).clusterIP, "10.96.1.2", "carried over from the stored one");
  });

  test("the range's first address is only for default/kubernetes", () => {
    assert.equal(allocator.kubernetesServiceIp, "10.96.0.1");
    const other: JsonObject = { metadata: { namespace: "a", name: "x" }, spec: { clusterIP: "10.96.0.1" } };
    assert.match(refusal(() => allocator.allocate(other)).message, /provided IP is already allocated/);
    const recreated = new ServiceAllocator(() => [], "10.96.0.0/12", DEFAULT_NODE_PORT_RANGE);
    const kubernetes: JsonObject = {
      metadata: { namespace: "default", name: "kubernetes" },
      spec: { clusterIP: "10.96.0.1" },
    };
    recreated.allocate(kubernetes);
    assert.equal((kubernetes.spec as JsonObject).clusterIP, "10.96.0.1");
  });
});
