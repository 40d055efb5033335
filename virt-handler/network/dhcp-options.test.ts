import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bridgeDhcpConfig, podNicMac } from "./bridge-plan.js";
import { dhcpOptionLines } from "./dhcp-options.js";

describe("DHCP options and the bridge binding's answer", () => {
  test("dhcpOptions become udhcpd lines: boot file, TFTP, NTP, private options as the value's bytes", () => {
    assert.deepEqual(
      dhcpOptionLines({
        name: "default",
        dhcpOptions: {
          bootFileName: "pxelinux.0",
          tftpServerName: "tftp.example",
          ntpServers: ["10.0.0.1", "10.0.0.2"],
          privateOptions: [{ option: 240, value: "hi" }],
        },
      }),
      ["opt bootfile pxelinux.0", "opt tftp tftp.example", "opt ntpsrv 10.0.0.1 10.0.0.2", "opt 0xf0 6869"],
    );
    assert.deepEqual(dhcpOptionLines({ name: "default" }), []);
  });

  test("a value that would break udhcpd's configuration is refused, never written", () => {
    const refuses = (dhcpOptions: object, message: RegExp) =>
      assert.throws(() => dhcpOptionLines({ name: "default", dhcpOptions }), {
        name: "DhcpOptionError",
        message,
      });
    refuses({ bootFileName: "pxe.0\ninterface eth0" }, /bootFileName [\s\S]* printable ASCII without spaces/);
    refuses({ tftpServerName: "a b" }, /tftpServerName/);
    refuses({ ntpServers: ["ntp.example"] }, /NTP server "ntp.example" is not an IPv4 address/);
    refuses({ privateOptions: [{ option: 100, value: "x" }] }, /not a private option/);
  });

  test("bridge: the guest is offered the pod's own address, routes and MTU, from the bridge", () => {
    const config = bridgeDhcpConfig({
      pod: {
        mac: "0a:58:0a:f4:00:07",
        address: "10.244.0.7",
        prefixLength: 24,
        mtu: 1450,
        gateway: "10.244.0.1",
        routes: [{ destination: "10.96.0.0/12", gateway: "10.244.0.1" }],
      },
      guestMac: "0a:58:0a:f4:00:07",
      hostname: "vm1",
      dnsServers: [],
      searchDomains: [],
    }).split("\n");
    for (const line of [
      "interface k6t-eth0",
      "static_lease 0a:58:0a:f4:00:07 10.244.0.7",
      "start 10.244.0.7",
      "opt subnet 255.255.255.0",
      "opt router 10.244.0.1",
      "opt staticroutes 10.96.0.0/12 10.244.0.1",
      "opt mtu 1450",
      "opt hostname vm1",
    ]) {
      assert.ok(config.includes(line), line);
    }
  });

  test("the pod's NIC gets a MAC of its own once the guest took the pod's: stable, unicast, local, different", () => {
    const original = "0a:58:0a:f4:00:07";
    const nic = podNicMac(original);
    assert.notEqual(nic, original);
    assert.equal(podNicMac(original), nic);
    const first = Number.parseInt(nic.slice(0, 2), 16);
    assert.equal(first & 0x01, 0, "unicast");
    assert.equal(first & 0x02, 0x02, "locally administered");
  });
});
