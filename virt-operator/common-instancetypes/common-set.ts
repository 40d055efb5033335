/**
 * The common set as kubevirt-ts installs it: all of KubeVirt's tables (instancetype-series.ts,
 * os-preferences.ts), each preference without the hints it can do without, and what a VM cannot
 * use yet, with the reasons admission gives (unhonoured-fields.ts). A series is reported whole (a
 * size users can use beside one they cannot is harder to explain than a series that says why).
 */
import type { VirtualMachinePreferenceSpec } from "../../api/index.js";
import { type CommonInstancetype, commonInstancetypes } from "./instancetype-series.js";
import { type CommonPreference, commonPreferences } from "./os-preferences.js";
import { installedPreference, unhonouredInstancetypeFields } from "./unhonoured-fields.js";

export interface NotUsableYet {
  /** An instancetype series (`cx1`) or a preference (`windows.11`). */
  readonly name: string;
  readonly reasons: readonly string[];
}

export interface CommonSet {
  readonly instancetypes: readonly CommonInstancetype[];
  readonly preferences: readonly (CommonPreference & { readonly droppedFields: readonly string[] })[];
  /** Installed, but a VM using them is refused, saying why. */
  readonly seriesNotUsableYet: readonly NotUsableYet[];
  readonly preferencesNotUsableYet: readonly NotUsableYet[];
}

export function commonSet(): CommonSet {
  const instancetypes = commonInstancetypes();
  const seriesNotUsableYet: NotUsableYet[] = [];
  for (const series of new Set(instancetypes.map((instancetype) => instancetype.series))) {
    const members = instancetypes.filter((instancetype) => instancetype.series === series);
    const reasons = [...new Set(members.flatMap((member) => unhonouredInstancetypeFields(member.spec)))];
    if (reasons.length > 0) seriesNotUsableYet.push({ name: series.prefix, reasons });
  }
  const preferences: CommonSet["preferences"][number][] = [];
  const preferencesNotUsableYet: NotUsableYet[] = [];
  for (const preference of commonPreferences()) {
    const installed = installedPreference(preference.spec, { desktop: preference.desktop });
    preferences.push({ ...preference, spec: installed.spec, droppedFields: installed.dropped });
    if (installed.unusable.length > 0)
      preferencesNotUsableYet.push({ name: preference.name, reasons: installed.unusable });
  }
  return { instancetypes, preferences, seriesNotUsableYet, preferencesNotUsableYet };
}

/** The series' version, from its prefix: `1` for `u1`. */
export function seriesVersion(series: CommonInstancetype["series"]): string {
  return /\d+$/.exec(series.prefix)?.[0] ?? "";
}

/** The guest memory a preference requires, if it says. */
export function requiredMemory(spec: VirtualMachinePreferenceSpec): string | undefined {
  const memory = spec.requirements?.memory?.guest;
  return memory === undefined ? undefined : String(memory);
}
