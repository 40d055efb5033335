/**
 * KubeVirt's common instancetypes (kubevirt/common-instancetypes `instancetypes/<class>/1/`), as a
 * table of series × sizes: every series is one class with one vCPU:memory ratio and the fields its
 * class adds to each size; every size is a number of vCPUs. Names are `<class><version>.<size>`,
 * e.g. `u1.medium` (1 vCPU, 4Gi).
 */
import type { VirtualMachineInstancetypeSpec } from "../../api/index.js";

/** KubeVirt's sizes and their vCPUs (`nano` … `8xlarge`; `2xmedium` is the U series' 2-vCPU 4Gi). */
const VCPUS_OF_SIZE = {
  nano: 1,
  micro: 1,
  small: 1,
  medium: 1,
  "2xmedium": 2,
  large: 2,
  xlarge: 4,
  "2xlarge": 8,
  "4xlarge": 16,
  "8xlarge": 32,
} as const;
export type SizeName = keyof typeof VCPUS_OF_SIZE;

/**
 * The memory of the sizes below one vCPU's share: the small sizes halve it down from `medium`
 * (U and O: 4Gi, 2Gi, 1Gi, 512Mi); `2xmedium` doubles the vCPUs of `medium`, not its memory.
 */
const MEMORY_MIB_OF_SMALL_SIZE: Partial<Record<SizeName, number>> = {
  nano: 512,
  micro: 1024,
  small: 2048,
  "2xmedium": 4096,
};

const STANDARD_SIZES: readonly SizeName[] = ["medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge"];

export interface InstancetypeSeries {
  /** The class letter(s) and version: `u1`. */
  readonly prefix: string;
  readonly classLabel: string;
  readonly displayName: string;
  readonly description: string;
  readonly iconPf: string;
  /** GiB of memory per vCPU: U and O 4, CX 2, M 8. */
  readonly memoryGibPerVcpu: number;
  readonly sizes: readonly SizeName[];
  /** The series' fields on top of vCPUs and memory. */
  readonly extend?: (spec: VirtualMachineInstancetypeSpec) => VirtualMachineInstancetypeSpec;
  /** Each size also comes with 1Gi hugepages, named `<size>1gi` (CX and M). */
  readonly oneGiHugepageVariants?: boolean;
  /** Labels saying what the series adds, e.g. `dedicatedCPUPlacement: "true"`. */
  readonly extraLabels?: Readonly<Record<string, string>>;
}

export interface CommonInstancetype {
  readonly name: string;
  readonly series: InstancetypeSeries;
  readonly size: string;
  readonly spec: VirtualMachineInstancetypeSpec;
}

const withHugepages =
  (pageSize: string) =>
  (spec: VirtualMachineInstancetypeSpec): VirtualMachineInstancetypeSpec => ({
    ...spec,
    memory: { ...spec.memory, hugepages: { pageSize } },
  });

export const COMMON_SERIES: readonly InstancetypeSeries[] = [
  {
    prefix: "u1",
    classLabel: "general.purpose",
    displayName: "General Purpose",
    description:
      "U (Universal) series: general purpose workloads; vCPUs share physical cores with other VMs in time slices.",
    iconPf: "pficon-server-group",
    memoryGibPerVcpu: 4,
    sizes: ["nano", "micro", "small", "medium", "2xmedium", ...STANDARD_SIZES.slice(1)],
  },
  {
    prefix: "o1",
    classLabel: "overcommitted",
    displayName: "Overcommitted",
    description:
      "O (Overcommitted) series: the U series with half of the guest memory not requested from the node.",
    iconPf: "pficon-virtual-machine",
    memoryGibPerVcpu: 4,
    sizes: ["nano", "micro", "small", ...STANDARD_SIZES],
    extend: (spec) => ({ ...spec, memory: { ...spec.memory, overcommitPercent: 50 } }),
  },
  {
    prefix: "cx1",
    classLabel: "compute.exclusive",
    displayName: "Compute Exclusive",
    description:
      "CX (Compute Exclusive) series: dedicated vCPUs with an isolated emulator thread, the host's NUMA topology and hugepages; needs the CPU manager and hugepages on the nodes.",
    iconPf: "pficon-registry",
    memoryGibPerVcpu: 2,
    sizes: STANDARD_SIZES,
    extend: (spec) => ({
      ...spec,
      cpu: {
        ...spec.cpu,
        dedicatedCPUPlacement: true,
        isolateEmulatorThread: true,
        numa: { guestMappingPassthrough: {} },
        // As many sockets as vCPUs: no room left for CPU hotplug, which could exceed the node.
        maxSockets: spec.cpu.guest,
      },
      ioThreadsPolicy: "auto",
    }),
    oneGiHugepageVariants: true,
    extraLabels: { dedicatedCPUPlacement: "true", isolateEmulatorThread: "true", numa: "true" },
  },
  {
    prefix: "m1",
    classLabel: "memory.intensive",
    displayName: "Memory Intensive",
    description: "M (Memory) series: memory intensive workloads, backed by hugepages.",
    iconPf: "fa-memory",
    memoryGibPerVcpu: 8,
    sizes: STANDARD_SIZES.slice(1),
    oneGiHugepageVariants: true,
  },
];

/** The series that back their memory with hugepages (2Mi pages, or 1Gi in the `1gi` variants). */
const HUGEPAGE_SERIES = new Set(["cx1", "m1"]);

/** Every instancetype of the common set, in series order, each size then its `1gi` variant list. */
export function commonInstancetypes(
  series: readonly InstancetypeSeries[] = COMMON_SERIES,
): CommonInstancetype[] {
  return series.flatMap((one) => {
    const base = one.sizes.map((size) =>
      sized(one, size, size, HUGEPAGE_SERIES.has(one.prefix) ? "2Mi" : undefined),
    );
    const oneGi = one.oneGiHugepageVariants
      ? one.sizes.map((size) => sized(one, size, `${size}1gi`, "1Gi"))
      : [];
    return [...base, ...oneGi];
  });
}

function sized(
  series: InstancetypeSeries,
  size: SizeName,
  sizeLabel: string,
  hugepages: string | undefined,
): CommonInstancetype {
  const guest = VCPUS_OF_SIZE[size];
  const memoryMib = MEMORY_MIB_OF_SMALL_SIZE[size] ?? guest * series.memoryGibPerVcpu * 1024;
  const plain: VirtualMachineInstancetypeSpec = {
    cpu: { guest },
    memory: { guest: quantityOfMib(memoryMib) },
  };
  const extended = series.extend ? series.extend(plain) : plain;
  const spec = hugepages ? withHugepages(hugepages)(extended) : extended;
  return { name: `${series.prefix}.${sizeLabel}`, series, size: sizeLabel, spec };
}

/** `512Mi`, `4Gi`: the units the common set writes. */
export function quantityOfMib(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024}Gi` : `${mib}Mi`;
}
