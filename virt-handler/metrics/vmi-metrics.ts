// Per-VM metrics under KubeVirt's names, read from libvirt (and the launcher pods' taps) when
// Prometheus scrapes (nothing is polled in between). One reading of all domains serves every metric
// of one scrape.
import { Counter, Gauge, type Registry } from "prom-client";
import type { DomainSample } from "./domain-sample.js";

const VMI_LABELS = ["namespace", "name", "node"] as const;

export interface VmiMetricsOptions {
  readonly registry: Registry;
  readonly nodeName: string;
  /** Reads every running VMI domain of this node. */
  readonly sample: () => Promise<readonly DomainSample[]> | readonly DomainSample[];
}

export function registerVmiMetrics(options: VmiMetricsOptions): void {
  const { registry, nodeName } = options;
  // prom-client starts collecting every metric at once, in the order they were registered: the
  // first one starts the reading, the others of the same scrape wait for that same reading.
  let reading: Promise<readonly DomainSample[]> = Promise.resolve([]);
  const samples = (): Promise<readonly DomainSample[]> => reading;
  const vmi = (sample: DomainSample) => ({ namespace: sample.namespace, name: sample.name, node: nodeName });
  const registers = [registry];

  new Counter({
    name: "kubevirt_vmi_vcpu_seconds_total",
    help: "CPU time the VMI's vCPUs used, in seconds (all vCPUs together).",
    labelNames: VMI_LABELS,
    registers,
    async collect() {
      reading = Promise.resolve(options.sample());
      const read = await reading;
      this.reset();
      for (const sample of read) this.inc(vmi(sample), sample.cpuSeconds);
    },
  });
  new Gauge({
    name: "kubevirt_vmi_memory_domain_bytes",
    help: "Memory given to the VMI's domain, in bytes.",
    labelNames: VMI_LABELS,
    registers,
    async collect() {
      const read = await samples();
      this.reset();
      for (const sample of read) this.set(vmi(sample), sample.memoryDomainBytes);
    },
  });
  new Gauge({
    name: "kubevirt_vmi_memory_resident_bytes",
    help: "Resident memory of the VMI's QEMU process, in bytes.",
    labelNames: VMI_LABELS,
    registers,
    async collect() {
      const read = await samples();
      this.reset();
      for (const sample of read) {
        if (sample.residentBytes !== undefined) this.set(vmi(sample), sample.residentBytes);
      }
    },
  });
  registerIoCounters(registers, samples, vmi);
}

type Labels = Record<string, string>;

function registerIoCounters(
  registers: Registry[],
  samples: () => Promise<readonly DomainSample[]>,
  vmi: (sample: DomainSample) => Labels,
): void {
  const disk = (name: string, help: string, value: (d: DomainSample["disks"][number]) => number) =>
    new Counter({
      name,
      help,
      labelNames: [...VMI_LABELS, "drive"],
      registers,
      async collect() {
        const read = await samples();
        this.reset();
        for (const sample of read) {
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
  registerNicCounters(registers, samples, vmi);
}

type Nic = DomainSample["interfaces"][number];

/** KubeVirt's per-interface counters, labelled with the VMI's name for the interface. */
function registerNicCounters(
  registers: Registry[],
  samples: () => Promise<readonly DomainSample[]>,
  vmi: (sample: DomainSample) => Labels,
): void {
  const nic = (name: string, help: string, value: (n: Nic) => number | undefined) =>
    new Counter({
      name,
      help,
      labelNames: [...VMI_LABELS, "interface"],
      registers,
      async collect() {
        const read = await samples();
        this.reset();
        for (const sample of read) {
          for (const n of sample.interfaces) {
            const counted = value(n);
            if (counted !== undefined) this.inc({ ...vmi(sample), interface: n.name }, counted);
          }
        }
      },
    });
  nic(
    "kubevirt_vmi_network_receive_bytes_total",
    "Bytes the guest received on an interface.",
    (n) => n.rxBytes,
  );
  nic("kubevirt_vmi_network_transmit_bytes_total", "Bytes the guest sent on an interface.", (n) => n.txBytes);
  nic(
    "kubevirt_vmi_network_receive_packets_total",
    "Packets the guest received on an interface.",
    (n) => n.rxPackets,
  );
  nic(
    "kubevirt_vmi_network_transmit_packets_total",
    "Packets the guest sent on an interface.",
    (n) => n.txPackets,
  );
  nic(
    "kubevirt_vmi_network_receive_errors_total",
    "Packets with errors on receive to the guest.",
    (n) => n.rxErrors,
  );
  nic(
    "kubevirt_vmi_network_transmit_errors_total",
    "Packets with errors on transmit from the guest.",
    (n) => n.txErrors,
  );
  nic(
    "kubevirt_vmi_network_receive_packets_dropped_total",
    "Packets for the guest dropped on its interface.",
    (n) => n.rxDrops,
  );
  nic(
    "kubevirt_vmi_network_transmit_packets_dropped_total",
    "Packets from the guest dropped on its interface.",
    (n) => n.txDrops,
  );
}
