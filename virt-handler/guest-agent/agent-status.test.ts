import assert from "node:assert/strict";
import { test } from "node:test";
import { type InterfaceAddresses, IPAddressType } from "../../libvirt/index.js";
import { applyGuestAgentStatus, mergeAgentInterfaces } from "./agent-status.js";

const v4 = (address: string) => ({ type: IPAddressType.IPv4, address, prefix: 24 });
const v6 = (address: string) => ({ type: IPAddressType.IPv6, address, prefix: 64 });
const GUEST: InterfaceAddresses[] = [
  { name: "lo", hardwareAddress: "00:00:00:00:00:00", addresses: [v4("127.0.0.1")] },
  {
    name: "eth0",
    hardwareAddress: "52:54:00:AA:BB:CC",
    addresses: [v4("10.0.2.2"), v6("fe80::1"), v6("fd00::2")],
  },
  { name: "eth1", hardwareAddress: "52:54:00:00:00:09", addresses: [v4("192.168.1.5")] },
];

test("agent interfaces merge by MAC: pod IPs kept per family, link-local dropped, guest-only added", () => {
  const merged = mergeAgentInterfaces(
    [
      {
        infoSource: "domain",
        name: "default",
        mac: "52:54:00:aa:bb:cc",
        ipAddress: "10.244.0.7",
        ipAddresses: ["10.244.0.7"],
        podInterfaceName: "eth0",
      },
      { infoSource: "domain", name: "other", mac: "52:54:00:ff:ff:ff" },
    ],
    GUEST,
  );
  assert.deepEqual(merged, [
    {
      infoSource: "domain, guest-agent",
      name: "default",
      mac: "52:54:00:aa:bb:cc",
      interfaceName: "eth0",
      ipAddress: "10.244.0.7",
      ipAddresses: ["10.244.0.7", "fd00::2"],
      podInterfaceName: "eth0",
    },
    { infoSource: "domain", name: "other", mac: "52:54:00:ff:ff:ff" },
    {
      infoSource: "guest-agent",
      interfaceName: "eth1",
      mac: "52:54:00:00:00:09",
      ipAddress: "192.168.1.5",
      ipAddresses: ["192.168.1.5"],
    },
  ]);
});

test("AgentConnected and guestOSInfo while connected; both go when the agent leaves", () => {
  const status: Parameters<typeof applyGuestAgentStatus>[0] = { phase: "Running", interfaces: [] };
  applyGuestAgentStatus(
    status,
    {
      connected: true,
      report: { osInfo: { id: "x", prettyName: "X 1", variant: "server" }, interfaces: [] },
    },
    Date.parse("2026-01-01T00:00:00Z"),
  );
  assert.deepEqual(status.guestOSInfo, { id: "x", prettyName: "X 1" });
  assert.equal(status.conditions?.find((c) => c.type === "AgentConnected")?.status, "True");
  applyGuestAgentStatus(status, { connected: false }, Date.parse("2026-01-01T00:01:00Z"));
  assert.equal(status.guestOSInfo, undefined);
  assert.equal(
    status.conditions?.find((c) => c.type === "AgentConnected"),
    undefined,
  );
});
