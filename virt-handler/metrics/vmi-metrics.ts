// Per-VM metrics under KubeVirt's names, read from libvirt when Prometheus scrapes (nothing is
// polled in between). One reading of all domains serves every metric of one scrape.
import { Counter, Gauge, type Registry } from "prom-client";
import type { DomainSample } from "./domain-sample.js";

const VMI_LABELS = ["namespace", "name", "node"] as const;

export interface VmiMetricsOptions {
  readonly registry: Registry;
  readonly nodeName: string;
  /** Reads every running VMI domain of this node. */
  readonly sample: () => readonly DomainSample[];
}

export function registerVmiMetrics(options: VmiMetricsOptions): void {
  const { registry, nodeName } = options;
  // prom-client collects metrics in the order they were registered: the first one reads libvirt,
  // the others of the same scrape reuse that reading.
  let reading: readonly DomainSample[] = [];
  const samples = (): readonly DomainSample[] => reading;
  const vmi = (sample: DomainSample) => ({ namespace: sample.namespace, name: sample.name, node: nodeName });
  const registers = [registry];

  new Counter({
    name: "kubevirt_vmi_vcpu_seconds_total",
    help: "CPU time the VMI's vCPUs used, in seconds (all vCPUs together).",
    labelNames: VMI_LABELS,
    registers,
    collect() {
      reading = options.sample();
      this.reset();
      for (const sample of reading) this.inc(vmi(sample), sample.cpuSeconds);
    },
  });
  new Gauge({
    name: "kubevirt_vmi_memory_domain_bytes",
    help: "Memory given to the VMI's domain, in bytes.",
    labelNames: VMI_LABELS,
    registers,
    collect() {
      this.reset();
      for (const sample of samples()) this.set(vmi(sample), sample.memoryDomainBytes);
    },
  });
  new Gauge({
    name: "kubevirt_vmi_memory_resident_bytes",
    help: "Resident memory of the VMI's QEMU process, in bytes.",
    labelNames: VMI_LABELS,
    registers,
    collect() {
      this.reset();
      for (const sample of samples()) {
        if (sample.residentBytes !== undefined) this.set(vmi(sample), sample.residentBytes);
      }
    },
  });
  registerIoCounters(registers, samples, vmi);
}

type Labels = Record<string, string>;

function registerIoCounters(
  registers: Registry[],
  samples: () => readonly DomainSample[],
  vmi: (sample: DomainSample) => Labels,
): void {
  const disk = (name: string, help: string, value: (d: DomainSample["disks"][number]) => number) =>
    new Counter({
      name,
      help,
      labelNames: [...VMI_LABELS, "drive"],
      registers,
      collect() {
        this.reset();
        for (const sample of samples()) {
          for (const d of sample.disks) this.inc({ ...vmi(sample), drive: d.drive }, value(d));
        }
      },
    });
  disk(
    "kubevirt_vmi_storage_read_traffic_bytes_total",
    "Bytes the VMI read from a disk.",
    (d) => d.readBytes,
  );
  disk(
    "kubevirt_vmi_storage_write_traffic_bytes_total",
    "Bytes the VMI wrote to a disk.",
    (d) => d.writeBytes,
  );
  disk("kubevirt_vmi_storage_iops_read_total", "Read requests of the VMI to a disk.", (d) => d.readRequests);
  disk(
    "kubevirt_vmi_storage_iops_write_total",
    "Write requests of the VMI to a disk.",
    (d) => d.writeRequests,
  );
  const nic = (name: string, help: string, value: (n: DomainSample["interfaces"][number]) => number) =>
    new Counter({
      name,
      help,
      labelNames: [...VMI_LABELS, "interface"],
      registers,
      collect() {
        this.reset();
        for (const sample of samples()) {
          for (const n of sample.interfaces) this.inc({ ...vmi(sample), interface: n.name }, value(n));
        }
      },
    });
  nic(
    "kubevirt_vmi_network_receive_bytes_total",
    "Bytes the VMI received on an interface.",
    (n) => n.rxBytes,
  );
  nic("kubevirt_vmi_network_transmit_bytes_total", "Bytes the VMI sent on an interface.", (n) => n.txBytes);
  nic("kubevirt_vmi_network_receive_packets_total", "Packets the VMI received.", (n) => n.rxPackets);
  nic("kubevirt_vmi_network_transmit_packets_total", "Packets the VMI sent.", (n) => n.txPackets);
}
