import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { passtArguments, portArguments, subnetGateway } from "./passt-plan.js";

const BASE = {
  interfaceName: "default",
  mtu: 1450,
  gateway: "10.244.0.1",
  socketPath: "/vms/u/passt.sock",
};

describe("passt's command line", () => {
  test("in the foreground (the launcher's process) as nobody on the VM's socket, the pod's MTU and interface", () => {
    const args = passtArguments({ ...BASE, ports: [{ protocol: "tcp", port: 80 }] });
    assert.deepEqual(args.slice(0, 7), [
      "--foreground",
      "--runas",
      "65534:65534",
      "--socket",
      "/vms/u/passt.sock",
      "--mtu",
      "1450",
    ]);
    const at = args.indexOf("--interface");
    assert.deepEqual(args.slice(at, at + 5), [
      "--interface",
      "eth0",
      "--gateway",
      "10.244.0.1",
      "--no-map-gw",
    ]);
    assert.ok(!args.includes("--one-off"), "it lives as long as its pod");
    assert.ok(!args.includes("--no-dhcp-dns"), "the pod's DNS is offered");
  });

  test("listed ports per protocol (sorted, once), none for a protocol without any, all when none is listed", () => {
    assert.deepEqual(
      portArguments({
        interfaceName: "default",
        ports: [
          { protocol: "tcp", port: 8080 },
          { protocol: "tcp", port: 80 },
          { protocol: "udp", port: 53 },
          { protocol: "tcp", port: 80 },
        ],
      }),
      ["--tcp-ports", "80,8080", "--udp-ports", "53"],
    );
    assert.deepEqual(portArguments({ interfaceName: "d", ports: [{ protocol: "udp", port: 5000 }] }), [
      "--tcp-ports",
      "none",
      "--udp-ports",
      "5000",
    ]);
    assert.deepEqual(portArguments({ interfaceName: "d", ports: [] }), [
      "--tcp-ports",
      "all",
      "--udp-ports",
      "all",
    ]);
  });

  test("nothing but a port number reaches passt: other values are refused", () => {
    for (const port of [0, 65536, 1.5, Number.NaN]) {
      assert.throws(() => portArguments({ interfaceName: "d", ports: [{ protocol: "tcp", port }] }), {
        name: "PasstPlanError",
        message: /port .* is not in 1-65535/,
      });
    }
    assert.throws(() => passtArguments({ ...BASE, mtu: 10, ports: [] }), { name: "PasstPlanError" });
    assert.throws(() => passtArguments({ ...BASE, gateway: "10.0.0.1 --x", ports: [] }), {
      name: "PasstPlanError",
    });
  });

  test("without a default route the guest's router is the subnet's first address (not the pod's own)", () => {
    assert.equal(subnetGateway("10.244.0.7", 24), "10.244.0.1");
    assert.equal(subnetGateway("10.244.0.1", 24), "10.244.0.254");
    assert.equal(subnetGateway("192.168.5.130", 25), "192.168.5.129");
  });
});
