import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";

/** The storage key of a resource: one per group and plural, shared by all of its versions. */
export function storageResource(type: Pick<ResourceType, "group" | "plural">): string {
  return `${type.group}/${type.plural}`;
}

export function groupVersion(type: Pick<ResourceType, "group" | "version">): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/**
 * Every resource this server serves: the built-in kinds and, for each established CRD, its
 * served versions. Discovery, OpenAPI and the REST handlers all read from here; `generation`
 * changes whenever the set does, so their caches know when to rebuild.
 */
export class ResourceRegistry {
  readonly #builtin: ResourceType[];
  readonly #custom = new Map<string, ResourceType[]>();
  #all: ResourceType[] = [];
  #generation = 0;

  constructor(builtin: ResourceType[]) {
    this.#builtin = builtin;
    this.#rebuild();
  }

  get generation(): number {
    return this.#generation;
  }

  all(): readonly ResourceType[] {
    return this.#all;
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.#all.find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  /** The version of a resource whose objects are stored (a CRD's storage version; built-ins have one). */
  storageVersionOf(group: string, plural: string): ResourceType | undefined {
    return this.#all.find((t) => t.group === group && t.plural === plural);
  }

  isGroupVersionServed(group: string, version: string): boolean {
    return this.#all.some((t) => t.group === group && t.version === version);
  }

  /** Registers (or replaces) the resource types of one CRD, keyed by the CRD's name. */
  setCustom(crdName: string, types: ResourceType[]): void {
    this.#custom.set(crdName, types);
    this.#rebuild();
  }

  removeCustom(crdName: string): void {
    if (this.#custom.delete(crdName)) this.#rebuild();
  }

  customTypesOf(crdName: string): ResourceType[] {
    return this.#custom.get(crdName) ?? [];
  }

  #rebuild(): void {
    // A CRD may not shadow a built-in resource: built-ins come first and win lookups.
    this.#all = [...this.#builtin, ...[...this.#custom.values()].flat()];
    this.#generation++;
  }
}

/** The storage version of a CRD: its `spec.versions[]` entry with `storage: true`. */
export function crdStorageVersion(crd: JsonObject): string | undefined {
  const spec = crd.spec as JsonObject | undefined;
  const versions = (spec?.versions ?? []) as JsonObject[];
  const storage = versions.find((v) => v.storage === true);
  return typeof storage?.name === "string" ? storage.name : undefined;
}
