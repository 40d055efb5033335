import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Registry } from "prom-client";
import type { DomainSample } from "./domain-sample.js";
import { registerVmiMetrics } from "./vmi-metrics.js";

const sample: DomainSample = {
  namespace: "ns",
  name: "vm1",
  cpuSeconds: 1.5,
  memoryDomainBytes: 134_217_728,
  residentBytes: 50_000_000,
  disks: [{ drive: "rootdisk", readBytes: 4096, writeBytes: 512, readRequests: 3, writeRequests: 1 }],
  interfaces: [{ name: "default", rxBytes: 100, txBytes: 200, rxPackets: 1, txPackets: 2 }],
};

describe("per-VM metrics", () => {
  test("KubeVirt's names, labelled by namespace, name and node; libvirt read once per scrape", async () => {
    const registry = new Registry();
    let reads = 0;
    registerVmiMetrics({
      registry,
      nodeName: "node1",
      sample: () => {
        reads += 1;
        return [sample];
      },
    });
    const text = await registry.metrics();
    assert.equal(reads, 1);
    await registry.metrics();
    const labels = 'namespace="ns",name="vm1",node="node1"';
    assert.match(text, new RegExp(`kubevirt_vmi_vcpu_seconds_total\\{${labels}\\} 1.5`));
    assert.match(text, new RegExp(`kubevirt_vmi_memory_resident_bytes\\{${labels}\\} 50000000`));
    assert.match(text, new RegExp(`kubevirt_vmi_memory_domain_bytes\\{${labels}\\} 134217728`));
    assert.match(
      text,
      new RegExp(`kubevirt_vmi_storage_read_traffic_bytes_total\\{${labels},drive="rootdisk"\\} 4096`),
    );
    assert.match(
      text,
      new RegExp(`kubevirt_vmi_network_receive_bytes_total\\{${labels},interface="default"\\} 100`),
    );
    assert.match(
      text,
      new RegExp(`kubevirt_vmi_network_transmit_bytes_total\\{${labels},interface="default"\\} 200`),
    );
    assert.equal(reads, 2);
  });

  test("a VM that is gone leaves no series behind", async () => {
    const registry = new Registry();
    let samples: DomainSample[] = [sample];
    registerVmiMetrics({ registry, nodeName: "node1", sample: () => samples });
    assert.match(await registry.metrics(), /name="vm1"/);
    samples = [];
    assert.doesNotMatch(await registry.metrics(), /name="vm1"/);
  });
});
