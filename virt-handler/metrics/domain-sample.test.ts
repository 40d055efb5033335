// sampleDomain on libvirt's test driver: which NIC's counters come from libvirt and which are
// taken as read elsewhere (the pod interface's tap), under the VMI's names for them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { domainFromXml } from "../../libvirt/domain-xml/index.js";
import { Connection, type Domain } from "../../libvirt/index.js";
import { uniqueName } from "../../libvirt/testing/test-domains.js";
import type { ObservedDomain } from "../domain/observed-domain.js";
import { type NicCounters, sampleDomain } from "./domain-sample.js";
import { noResidentBytes } from "./qemu-resident.js";

function domainXml(name: string): string {
  return `<domain type='test'>
  <name>${name}</name>
  <memory unit='MiB'>64</memory>
  <vcpu>1</vcpu>
  <os><type>hvm</type></os>
  <devices>
    <interface type='ethernet'>
      <mac address='52:54:00:00:00:0a'/><target dev='ktsample0' managed='no'/><alias name='ua-default'/>
    </interface>
    <interface type='network'>
      <source network='default'/><mac address='52:54:00:00:00:0b'/><alias name='ua-second'/>
    </interface>
  </devices>
</domain>`;
}

const inPod: NicCounters = {
  ...{ rxBytes: 1000, txBytes: 2000, rxPackets: 10, txPackets: 20 },
  ...{ rxErrors: 1, txErrors: 2, rxDrops: 3, txDrops: 4 },
};

describe("sampleDomain's NICs", () => {
  let connection: Connection;
  let domain: Domain;
  let observed: ObservedDomain;
  const vmi = { namespace: "default", name: "sampled" };

  before(async () => {
    connection = await Connection.open("test:///default");
    domain = await connection.defineDomain(domainXml(uniqueName("sample")));
    await domain.start();
    observed = {
      ...{ handle: domain, name: domain.name, identity: undefined, node: undefined },
      facts: { ...domain.state(), interfaces: [] },
      definition: domainFromXml(domain.xml()),
    };
  });
  after(async () => {
    await domain.destroy();
    await domain.undefine();
    domain.free();
    await connection.close();
  });

  test("every NIC from libvirt, named by its alias without ua-", () => {
    const sample = sampleDomain(observed, vmi, noResidentBytes);
    assert.deepEqual(
      sample.interfaces.map((nic) => nic.name),
      ["default", "second"],
    );
    for (const nic of sample.interfaces) assert.ok(nic.rxBytes >= 0 && nic.rxPackets !== undefined);
  });

  test("a NIC read elsewhere is taken as it is; libvirt still counts the others", () => {
    const sample = sampleDomain(observed, vmi, noResidentBytes, [{ name: "default", counters: inPod }]);
    assert.deepEqual(sample.interfaces[0], { name: "default", ...inPod });
    assert.equal(sample.interfaces[1]?.name, "second");
    assert.notEqual(sample.interfaces[1]?.rxBytes, inPod.rxBytes);
  });

  test("a NIC read elsewhere without counters this time is left out, not asked of libvirt", () => {
    const sample = sampleDomain(observed, vmi, noResidentBytes, [{ name: "default", counters: undefined }]);
    assert.deepEqual(
      sample.interfaces.map((nic) => nic.name),
      ["second"],
    );
  });
});
