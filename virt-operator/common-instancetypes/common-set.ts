/**
 * The common set as kubevirt-ts installs it: KubeVirt's tables (instancetype-series.ts,
 * os-preferences.ts) less what cannot be honoured yet (unhonoured-fields.ts). An instancetype
 * series is installed whole or not at all (a size users cannot find is worse than a series that
 * says why it is missing); a preference is installed without the hints it can do without.
 */
import type { VirtualMachineInstancetypeSpec, VirtualMachinePreferenceSpec } from "../../api/index.js";
import {
  type CommonInstancetype,
  commonInstancetypes,
  type InstancetypeSeries,
} from "./instancetype-series.js";
import { type CommonPreference, commonPreferences } from "./os-preferences.js";
import { preferenceSupport, unhonouredInstancetypeFields } from "./unhonoured-fields.js";

export interface LeftOut {
  /** An instancetype series (`cx1`) or a preference (`windows.11`). */
  readonly name: string;
  readonly reasons: readonly string[];
}

export interface CommonSet {
  readonly instancetypes: readonly CommonInstancetype[];
  readonly preferences: readonly (CommonPreference & { readonly droppedFields: readonly string[] })[];
  readonly leftOutSeries: readonly LeftOut[];
  readonly leftOutPreferences: readonly LeftOut[];
}

export function commonSet(): CommonSet {
  const all = commonInstancetypes();
  const seriesOrder = [...new Set(all.map((instancetype) => instancetype.series))];
  const instancetypes: CommonInstancetype[] = [];
  const leftOutSeries: LeftOut[] = [];
  for (const series of seriesOrder) {
    const members = all.filter((instancetype) => instancetype.series === series);
    const reasons = seriesReasons(members.map((member) => member.spec));
    if (reasons.length > 0) leftOutSeries.push({ name: series.prefix, reasons });
    else instancetypes.push(...members);
  }
  const preferences: CommonSet["preferences"][number][] = [];
  const leftOutPreferences: LeftOut[] = [];
  for (const preference of commonPreferences()) {
    const support = preferenceSupport(preference.spec, { desktop: preference.desktop });
    if (support.installed)
      preferences.push({ ...preference, spec: support.spec, droppedFields: support.dropped });
    else leftOutPreferences.push({ name: preference.name, reasons: support.reasons });
  }
  return { instancetypes, preferences, leftOutSeries, leftOutPreferences };
}

/** Every reason any size of a series gives, once each. */
function seriesReasons(specs: readonly VirtualMachineInstancetypeSpec[]): string[] {
  return [...new Set(specs.flatMap(unhonouredInstancetypeFields))];
}

/** The series' version, from its prefix: `1` for `u1`. */
export function seriesVersion(series: InstancetypeSeries): string {
  return /\d+$/.exec(series.prefix)?.[0] ?? "";
}

/** The guest memory a preference requires, if it says. */
export function requiredMemory(spec: VirtualMachinePreferenceSpec): string | undefined {
  const memory = spec.requirements?.memory?.guest;
  return memory === undefined ? undefined : String(memory);
}
