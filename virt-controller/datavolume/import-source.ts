// What the importer reads for a DataVolume, from its spec.source: admission (api/validation/
// data-volume-validation.ts) refused what kubevirt-ts cannot import, and this says it again for a
// DataVolume stored before a rule existed.
import { type StoredDataVolume, validateDataVolume } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { ImportSource } from "./importer-pod.js";

export type SourceOrProblem =
  | { readonly source: ImportSource }
  | { readonly problem: { readonly reason: string; readonly message: string } };

export function importSourceOf(dv: Frozen<StoredDataVolume>): SourceOrProblem {
  const causes = validateDataVolume(dv);
  if (causes.length > 0) {
    const message = causes.map((cause) => `${cause.field}: ${cause.message}`).join("; ");
    return { problem: { reason: "InvalidSpec", message } };
  }
  const source = dv.spec.source ?? {};
  if (source.http) return { source: { kind: "http", url: source.http.url } };
  if (source.registry?.url) return { source: { kind: "registry", url: source.registry.url } };
  if (source.pvc) return { source: { kind: "pvc", claimName: source.pvc.name } };
  return { source: { kind: "blank" } };
}
