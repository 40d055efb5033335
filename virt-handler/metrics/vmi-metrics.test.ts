import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Registry } from "prom-client";
import type { DomainSample, InterfaceSample } from "./domain-sample.js";
import { registerVmiMetrics } from "./vmi-metrics.js";

const nic: InterfaceSample = {
  ...{ name: "default", rxBytes: 100, txBytes: 200, rxPackets: 1, txPackets: 2 },
  ...{ rxErrors: 3, txErrors: 4, rxDrops: 5, txDrops: 6 },
};

const sample: DomainSample = {
  namespace: "ns",
  name: "vm1",
  cpuSeconds: 1.5,
  memoryDomainBytes: 134_217_728,
  residentBytes: 50_000_000,
  disks: [{ drive: "rootdisk", readBytes: 4096, writeBytes: 512, readRequests: 3, writeRequests: 1 }],
  interfaces: [nic],
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
    const nicLabels = `${labels},interface="default"`;
    for (const [name, value] of [
      ["transmit_bytes", 200],
      ["receive_packets", 1],
      ["transmit_packets", 2],
      ["receive_errors", 3],
      ["transmit_errors", 4],
      ["receive_packets_dropped", 5],
      ["transmit_packets_dropped", 6],
    ] as const) {
      assert.match(text, new RegExp(`^kubevirt_vmi_network_${name}_total\\{${nicLabels}\\} ${value}$`, "m"));
    }
    assert.equal(reads, 2);
  });

  test("a reading that takes its time (the pods' taps) is awaited, once, by every metric of the scrape", async () => {
    const registry = new Registry();
    let reads = 0;
    registerVmiMetrics({
      registry,
      nodeName: "node1",
      sample: async () => {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [sample];
      },
    });
    const text = await registry.metrics();
    assert.equal(reads, 1);
    assert.match(
      text,
      /^kubevirt_vmi_memory_domain_bytes\{namespace="ns",name="vm1",node="node1"\} 134217728$/m,
    );
    assert.match(text, /^kubevirt_vmi_network_receive_bytes_total\{.*interface="default"\} 100$/m);
  });

  test("a counter the NIC does not have is no series, not a zero", async () => {
    const registry = new Registry();
    const uncounted: DomainSample = {
      ...sample,
      interfaces: [{ ...nic, rxDrops: undefined, txErrors: undefined }],
    };
    registerVmiMetrics({ registry, nodeName: "node1", sample: () => [uncounted] });
    const text = await registry.metrics();
    assert.doesNotMatch(text, /^kubevirt_vmi_network_receive_packets_dropped_total\{/m);
    assert.doesNotMatch(text, /^kubevirt_vmi_network_transmit_errors_total\{/m);
    assert.match(text, /^kubevirt_vmi_network_receive_errors_total\{.*interface="default"\} 3$/m);
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
