import { Quantity } from "../../../runtime/index.js";

/** Resources in the units the scheduler compares: millicores for cpu, whole units for the rest. */
export interface ResourceAmounts {
  milliCpu: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended resources (`devices.kubevirt.io/kvm`), hugepages, attachable volumes. */
  scalar: Map<string, number>;
}

export type ResourceList = Readonly<Record<string, string | number>>;

export function emptyAmounts(): ResourceAmounts {
  return { milliCpu: 0, memory: 0, ephemeralStorage: 0, scalar: new Map() };
}

/** `target += sign × source`, in place; scalar entries that reach zero are dropped. */
export function addAmounts(target: ResourceAmounts, source: ResourceAmounts, sign: 1 | -1 = 1): void {
  target.milliCpu += sign * source.milliCpu;
  target.memory += sign * source.memory;
  target.ephemeralStorage += sign * source.ephemeralStorage;
  for (const [name, amount] of source.scalar) {
    const sum = (target.scalar.get(name) ?? 0) + sign * amount;
    if (sum === 0) target.scalar.delete(name);
    else target.scalar.set(name, sum);
  }
}

/** Per resource, the larger of the two, in place (init containers run one at a time). */
export function maxAmounts(target: ResourceAmounts, source: ResourceAmounts): void {
  target.milliCpu = Math.max(target.milliCpu, source.milliCpu);
  target.memory = Math.max(target.memory, source.memory);
  target.ephemeralStorage = Math.max(target.ephemeralStorage, source.ephemeralStorage);
  for (const [name, amount] of source.scalar) {
    target.scalar.set(name, Math.max(target.scalar.get(name) ?? 0, amount));
  }
}

/**
 * Native resources carry no domain or the kubernetes.io one; everything else is extended
 * (v1helper.IsExtendedResourceName). Quota-only names (`requests.*`) are never requested.
 */
function isExtendedResourceName(name: string): boolean {
  const native = !name.includes("/") || name.includes("kubernetes.io/");
  return !native && !name.startsWith("requests.");
}

/** schedutil.IsScalarResourceName: the resources counted one by one besides cpu, memory and storage. */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) || name.startsWith("hugepages-") || name.startsWith("attachable-volumes-")
  );
}

/**
 * Reads a ResourceList (requests, allocatable). Names the scheduler does not count (`pods` is
 * read separately) are ignored. The API server validates quantities; one we cannot read counts
 * as zero rather than making the whole object unusable.
 */
export function amountsFromList(list: ResourceList | undefined): ResourceAmounts {
  const amounts = emptyAmounts();
  for (const [name, quantity] of Object.entries(list ?? {})) {
    const value = readQuantity(name, quantity);
    if (value === undefined) continue;
    if (name === "cpu") amounts.milliCpu = value;
    else if (name === "memory") amounts.memory = value;
    else if (name === "ephemeral-storage") amounts.ephemeralStorage = value;
    else if (isScalarResourceName(name)) amounts.scalar.set(name, value);
  }
  return amounts;
}

/** cpu counts in millicores (MilliValue), the rest in whole units (Value), as apimachinery rounds them. */
function readQuantity(name: string, quantity: string | number): number | undefined {
  const parsed = Quantity.tryParse(quantity);
  if (parsed === undefined) return undefined;
  return name === "cpu" ? parsed.milliValue() : parsed.value();
}

/** A count from a ResourceList (`pods: "110"`), 0 when absent or unreadable. */
export function countFromList(list: ResourceList | undefined, name: string): number {
  const quantity = list?.[name];
  if (quantity === undefined) return 0;
  return readQuantity(name, quantity) ?? 0;
}
