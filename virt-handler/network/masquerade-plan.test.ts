import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  INFINITE_LEASE_SECONDS,
  MasqueradePlanError,
  planMasquerade,
  vmNetworkOf,
} from "./masquerade-plan.js";

const inputs = {
  interfaceName: "default",
  guestMac: "02:aa:bb:cc:dd:01",
  ports: [],
  mtu: 1450,
  hostname: "vm1",
  dnsServers: [],
  searchDomains: [],
};

describe("KubeVirt's masquerade plan", () => {
  test("the VM network: gateway first, guest second; KubeVirt's CIDR errors", () => {
    assert.deepEqual(vmNetworkOf(), { gateway: "10.0.2.1", guest: "10.0.2.2", prefixLength: 24 });
    assert.deepEqual(vmNetworkOf("192.168.7.77/28"), {
      gateway: "192.168.7.65",
      guest: "192.168.7.66",
      prefixLength: 28,
    });
    assert.throws(() => vmNetworkOf("10.0.2.0/31"), {
      name: "MasqueradePlanError",
      message: "VM CIDR subnet is too small, at least 2 host addresses are required: 10.0.2.0/31",
    });
    assert.throws(() => vmNetworkOf("10.0.300.0/24"), MasqueradePlanError);
    assert.throws(() => vmNetworkOf("fd10::/64"), /failed to parse VM CIDR: fd10::\/64/);
  });

  test("no ports: everything arriving on eth0 and at the pod's localhost goes to the guest", () => {
    const { nftScript } = planMasquerade(inputs);
    assert.match(nftScript, /^table ip nat \{\}\ndelete table ip nat\ntable ip nat \{/);
    assert.match(
      nftScript,
      /chain prerouting \{\n\s+type nat hook prerouting priority -100;\n\s+iifname "eth0" counter jump KUBEVIRT_PREINBOUND/,
    );
    assert.match(nftScript, /chain KUBEVIRT_PREINBOUND \{\n\s+counter dnat to 10\.0\.2\.2\n/);
    assert.match(nftScript, /ip saddr 10\.0\.2\.2 counter masquerade/);
    assert.match(nftScript, /ip daddr \{ 127\.0\.0\.1 \} counter dnat to 10\.0\.2\.2/);
    assert.match(nftScript, /ip saddr \{ 127\.0\.0\.1 \} counter snat to 10\.0\.2\.1/);
  });

  test("listed ports: only they are forwarded, each with its protocol", () => {
    const { nftScript } = planMasquerade({
      ...inputs,
      ports: [
        { protocol: "tcp", port: 80 },
        { protocol: "udp", port: 53 },
      ],
    });
    assert.match(nftScript, /tcp dport \{ 80 \} counter dnat to 10\.0\.2\.2/);
    assert.match(nftScript, /udp dport \{ 53 \} counter dnat to 10\.0\.2\.2/);
    assert.match(nftScript, /ip daddr \{ 127\.0\.0\.1 \} tcp dport 80 counter dnat to 10\.0\.2\.2/);
    assert.doesNotMatch(nftScript, /^\s+counter dnat to/m, "no catch-all forward");
  });

  test("the DHCP answer: the guest's MAC only, its address, gateway, MTU, hostname, an infinite lease", () => {
    const { dhcpConfig } = planMasquerade({
      ...inputs,
      dnsServers: ["10.96.0.10"],
      searchDomains: ["ns.svc.cluster.local", "svc.cluster.local"],
    });
    const lines = dhcpConfig.trim().split("\n");
    for (const line of [
      "interface k6t-eth0",
      "start 10.0.2.2",
      "end 10.0.2.2",
      "max_leases 1",
      "static_lease 02:aa:bb:cc:dd:01 10.0.2.2",
      "opt subnet 255.255.255.0",
      "opt router 10.0.2.1",
      "opt mtu 1450",
      "opt hostname vm1",
      `opt lease ${INFINITE_LEASE_SECONDS}`,
      "opt dns 10.96.0.10",
      "opt domain ns.svc.cluster.local",
      "opt search ns.svc.cluster.local svc.cluster.local",
      "lease_file udhcpd.leases",
    ]) {
      assert.ok(lines.includes(line), `${line} in\n${dhcpConfig}`);
    }
    assert.equal(lines.filter((line) => line.startsWith("opt dns")).length, 1);
    assert.ok(!planMasquerade(inputs).dhcpConfig.includes("opt dns"), "no DNS servers: none offered");
  });
});
