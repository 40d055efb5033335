// What kubevirt-ts's DataVolumes can do, checked where the user sees it (a DataVolume's admission and
// a VM's dataVolumeTemplates): exactly one source; the sources the importer reads (http, registry,
// blank, a claim of the same namespace); a size. A field CDI has that kubevirt-ts does not honour
// yet is refused with the reason rather than ignored.
import type { DataVolumeSpec } from "../vm/data-volume-template.js";
import { type Cause, forbidden, invalid, required } from "./cause.js";
import { child } from "./field-path.js";

type Source = NonNullable<DataVolumeSpec["source"]>;

const SOURCES = ["http", "registry", "pvc", "blank", "s3", "gcs", "snapshot", "upload"] as const;
const UNSUPPORTED_SOURCES = new Set(["s3", "gcs", "snapshot", "upload"]);

export function validateDataVolumeSpec(field: string, spec: DataVolumeSpec, namespace: string): Cause[] {
  const causes: Cause[] = [];
  const source = spec.source ?? {};
  const given = SOURCES.filter((name) => source[name] !== undefined);
  if (spec.sourceRef !== undefined) {
    causes.push(
      forbidden(child(field, "sourceRef"), "DataSource references are not supported yet: give spec.source"),
    );
  } else if (given.length !== 1) {
    causes.push(
      given.length === 0
        ? required(child(field, "source"), "exactly one source (http, registry, pvc, blank) is required")
        : invalid(child(field, "source"), `exactly one source is allowed, got ${given.join(", ")}`),
    );
  }
  for (const name of given) {
    if (UNSUPPORTED_SOURCES.has(name)) {
      causes.push(forbidden(child(field, "source", name), `the ${name} source is not supported yet`));
    }
  }
  causes.push(...httpCauses(child(field, "source", "http"), source.http));
  causes.push(...registryCauses(child(field, "source", "registry"), source.registry));
  // namespace "": not known here (a VM's template checked without it); the controller checks again.
  const clonesFrom = source.pvc?.namespace ?? "";
  if (namespace !== "" && clonesFrom !== "" && clonesFrom !== namespace) {
    causes.push(
      forbidden(
        child(field, "source", "pvc", "namespace"),
        "clones from another namespace are not supported yet",
      ),
    );
  }
  causes.push(...claimSpecCauses(field, spec));
  if (spec.contentType === "archive") {
    causes.push(forbidden(child(field, "contentType"), "contentType archive is not supported yet"));
  }
  for (const unsupported of ["checkpoints", "finalCheckpoint", "preallocation"] as const) {
    if (spec[unsupported] !== undefined) {
      causes.push(forbidden(child(field, unsupported), `${unsupported} is not supported yet`));
    }
  }
  return causes;
}

function httpCauses(field: string, http: Source["http"] | undefined): Cause[] {
  if (http === undefined) return [];
  const causes: Cause[] = [];
  if (!/^https?:\/\/[^\s]+$/.test(http.url)) {
    causes.push(invalid(child(field, "url"), "url must be an http:// or https:// URL"));
  }
  for (const unsupported of ["secretRef", "certConfigMap", "extraHeaders", "secretExtraHeaders"] as const) {
    if (http[unsupported] !== undefined) {
      causes.push(forbidden(child(field, unsupported), `${unsupported} is not supported yet`));
    }
  }
  return causes;
}

function registryCauses(field: string, registry: Source["registry"] | undefined): Cause[] {
  if (registry === undefined) return [];
  const causes: Cause[] = [];
  if (registry.url === undefined || !registry.url.startsWith("docker://")) {
    causes.push(
      invalid(
        child(field, "url"),
        "url must be a docker:// image reference (imageStream and oci-archive are not supported yet)",
      ),
    );
  }
  if (registry.pullMethod === "node") {
    causes.push(forbidden(child(field, "pullMethod"), "pullMethod node is not supported yet: use pod"));
  }
  for (const unsupported of ["secretRef", "certConfigMap", "imageStream", "platform"] as const) {
    if (registry[unsupported] !== undefined) {
      causes.push(forbidden(child(field, unsupported), `${unsupported} is not supported yet`));
    }
  }
  return causes;
}

function claimSpecCauses(field: string, spec: DataVolumeSpec): Cause[] {
  if (spec.pvc !== undefined && spec.storage !== undefined) {
    return [invalid(field, "spec.pvc and spec.storage are mutually exclusive")];
  }
  const name = spec.pvc !== undefined ? "pvc" : "storage";
  const claim = spec.pvc ?? spec.storage;
  if (claim === undefined) return [required(child(field, "storage"), "spec.storage or spec.pvc is required")];
  const causes: Cause[] = [];
  if (claim.resources?.requests?.storage === undefined) {
    causes.push(
      required(
        child(field, name, "resources", "requests", "storage"),
        "the size is required (clones without one are not supported yet)",
      ),
    );
  }
  if (claim.volumeMode === "Block") {
    causes.push(forbidden(child(field, name, "volumeMode"), "Block volumes are not supported yet"));
  }
  if (claim.dataSource !== undefined || claim.dataSourceRef !== undefined) {
    causes.push(forbidden(child(field, name, "dataSourceRef"), "volume populators are not supported yet"));
  }
  return causes;
}
