import { Quantity } from "../../runtime/quantity/quantity.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child } from "./field-path.js";

/**
 * Sizes and CPU counts of a VMI spec (virt-api's memory and CPU checks): every
 * quantity parses, none is negative, memory is at least 1M, requests do not exceed limits and the
 * guest memory fits in the limit. `field` is the spec's path (`spec` or `spec.template.spec`).
 */
export function validateResources(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const resourcesField = child(field, "domain", "resources");
  const resources = spec.domain.resources ?? {};
  const causes: Cause[] = [];
  const requests = parseList(child(resourcesField, "requests"), resources.requests, causes);
  const limits = parseList(child(resourcesField, "limits"), resources.limits, causes);
  const memoryField = child(field, "domain", "memory");
  const guest = parseOne(child(memoryField, "guest"), spec.domain.memory?.guest, causes);
  parseOne(child(memoryField, "maxGuest"), spec.domain.memory?.maxGuest, causes);
  parseOne(child(memoryField, "hugepages", "pageSize"), spec.domain.memory?.hugepages?.pageSize, causes);

  const requestsField = child(resourcesField, "requests");
  const limitsField = child(resourcesField, "limits");
  causes.push(...memoryFloor(child(requestsField, "memory"), requests.get("memory")));
  causes.push(...memoryFloor(child(limitsField, "memory"), limits.get("memory")));
  causes.push(...notNegative(child(requestsField, "cpu"), requests.get("cpu")));
  causes.push(...notNegative(child(limitsField, "cpu"), limits.get("cpu")));
  causes.push(
    ...notAbove(
      child(requestsField, "memory"),
      requests.get("memory"),
      child(limitsField, "memory"),
      limits.get("memory"),
    ),
  );
  causes.push(
    ...notAbove(
      child(requestsField, "cpu"),
      requests.get("cpu"),
      child(limitsField, "cpu"),
      limits.get("cpu"),
    ),
  );
  causes.push(
    ...notAbove(child(memoryField, "guest"), guest, child(limitsField, "memory"), limits.get("memory")),
  );
  if (guest !== undefined && guest.sign() < 0) {
    causes.push(
      invalid(
        child(memoryField, "guest"),
        `${child(memoryField, "guest")} '${guest.text}': must be greater than or equal to 0.`,
      ),
    );
  }
  return causes;
}

/**
 * A VMI must say how much memory it gets (virt-api's mandatory-fields check). A VM's template
 * may leave it to an instancetype, so this applies to VMIs only.
 */
export function validateMemoryIsSet(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const domain = spec.domain;
  const memorySet =
    domain.memory?.guest !== undefined ||
    domain.memory?.hugepages?.pageSize !== undefined ||
    domain.resources?.requests?.memory !== undefined ||
    domain.resources?.limits?.memory !== undefined;
  if (memorySet) return [];
  const path = (...names: string[]) => `'${child(field, "domain", ...names)}'`;
  return [
    {
      reason: "FieldValueRequired",
      message: `no memory requested, at least one of ${path("memory", "guest")}, ${path("memory", "hugepages", "size")}, ${path("resources", "requests", "memory")} or ${path("resources", "limits", "memory")} must be set`,
      field: child(field, "domain", "resources", "requests", "memory"),
    },
  ];
}

/** Parses every entry of a resource list; unparsable ones become causes and are left out. */
function parseList(
  field: string,
  list: Record<string, string | number> | undefined,
  causes: Cause[],
): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(list ?? {})) {
    const quantity = parseOne(child(field, name), value, causes);
    if (quantity !== undefined) parsed.set(name, quantity);
  }
  return parsed;
}

function parseOne(field: string, value: string | number | undefined, causes: Cause[]): Quantity | undefined {
  if (value === undefined) return undefined;
  const quantity = Quantity.tryParse(value);
  if (quantity === undefined) {
    causes.push(invalid(field, `${field} '${String(value)}': must be a quantity such as 128Mi, 2Gi or 500m`));
  }
  return quantity;
}

const ONE_MEGABYTE = Quantity.parse("1M");

function memoryFloor(field: string, quantity: Quantity | undefined): Cause[] {
  if (quantity === undefined) return [];
  if (quantity.sign() < 0)
    return [invalid(field, `${field} '${quantity.text}': must be greater than or equal to 0.`)];
  if (!quantity.isZero() && quantity.compare(ONE_MEGABYTE) < 0) {
    return [invalid(field, `${field} '${quantity.text}': must be greater than or equal to 1M.`)];
  }
  return [];
}

function notNegative(field: string, quantity: Quantity | undefined): Cause[] {
  if (quantity === undefined || quantity.sign() >= 0) return [];
  return [invalid(field, `${field} '${quantity.text}': must be greater than or equal to 0.`)];
}

function notAbove(
  field: string,
  value: Quantity | undefined,
  limitField: string,
  limit: Quantity | undefined,
): Cause[] {
  if (value === undefined || limit === undefined || value.compare(limit) <= 0) return [];
  return [invalid(field, `${field} '${value.text}' is greater than ${limitField} '${limit.text}'`)];
}
