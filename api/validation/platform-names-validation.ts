import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child, index } from "./field-path.js";

/**
 * How QEMU names CPU models, CPU features and machine types ("Skylake-Client-IBRS", "tsc_adjust",
 * "pc-q35-9.0", s390x's "z14.2-base"). libvirt hands these to QEMU inside `-cpu` and `-machine`
 * option lists, where a comma or an `=` would add options of the user's choosing.
 */
const QEMU_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const QEMU_NAME_RULE = "must start with a letter or digit and contain only letters, digits, '.', '_' or '-'";

/** An IANA zone name: components of letters, digits, '_', '+', '-', joined by '/'. */
const ZONE_NAME = /^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The names in a VMI spec that libvirt passes on to QEMU: the CPU model and feature names, the
 * machine type and the clock's timezone (QEMU's `TZ`, a file name under the host's zoneinfo, so
 * `..` or an absolute path would read another file). KubeVirt leaves these to libvirt and QEMU to
 * refuse; here they are refused at admission, with the field, and checked again by virt-handler.
 */
export function validatePlatformNames(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const domain = spec.domain;
  const causes: Cause[] = [];
  const cpuField = child(field, "domain", "cpu");
  causes.push(...qemuName(child(cpuField, "model"), domain.cpu?.model));
  (domain.cpu?.features ?? []).forEach((feature, position) => {
    causes.push(...qemuName(child(index(child(cpuField, "features"), position), "name"), feature.name));
  });
  causes.push(...qemuName(child(field, "domain", "machine", "type"), domain.machine?.type));
  const timezone = domain.clock?.timezone;
  if (timezone && !isKnownTimeZone(timezone)) {
    const timezoneField = child(field, "domain", "clock", "timezone");
    causes.push(
      invalid(
        timezoneField,
        `${timezoneField} "${timezone}" is not a known time zone name (such as Europe/Berlin or UTC)`,
      ),
    );
  }
  return causes;
}

function qemuName(field: string, value: string | undefined): Cause[] {
  if (!value || QEMU_NAME.test(value)) return [];
  return [invalid(field, `${field} ${QEMU_NAME_RULE}`)];
}

/** A zone name that is a plain relative path and that the runtime's time zone database knows. */
function isKnownTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
