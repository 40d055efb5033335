import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { ObjectMetaSchema } from "./core/object-meta.js";
import { compileValidator, type SchemaValidator } from "./schema/validator.js";

/**
 * What every kubevirt.io/v1 kind shares: its names (for clients, informers and the CRD), one
 * TypeBox schema for the whole object (the TypeScript type and the shape validator come from it),
 * and the CRD-only facts (printer columns, subresources).
 */

export const GROUP = "kubevirt.io";
export const VERSION = "v1";
export const API_VERSION = `${GROUP}/${VERSION}`;

export interface PrinterColumn {
  readonly name: string;
  readonly type: "string" | "integer" | "number" | "boolean" | "date";
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
}

export interface Subresources {
  readonly status?: true;
  readonly scale?: {
    readonly specReplicasPath: string;
    readonly statusReplicasPath: string;
    readonly labelSelectorPath?: string;
  };
}

export interface KindNames {
  /** kubevirt.io, or the group of a kind KubeVirt relies on (CDI's cdi.kubevirt.io). */
  readonly group: string;
  readonly version: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** False for cluster-scoped kinds (the cluster instancetypes and preferences). */
  readonly namespaced: boolean;
}

export interface KindDefinition<Spec extends TSchema, Status extends TSchema> extends KindNames {
  /** The whole object: apiVersion, kind, metadata, spec, status. */
  readonly schema: ObjectSchema<Spec, Status>;
  readonly specSchema: Spec;
  readonly statusSchema: Status;
  /** Shape validation of a whole object (what the API server checks against the CRD). */
  readonly validator: SchemaValidator<Static<ObjectSchema<Spec, Status>>>;
  readonly printerColumns: readonly PrinterColumn[];
  readonly subresources: Subresources;
  readonly description: string;
}

function objectSchema<Spec extends TSchema, Status extends TSchema>(spec: Spec, status: Status) {
  return Type.Object({
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMetaSchema),
    spec,
    status: Type.Optional(status),
  });
}

export type ObjectSchema<Spec extends TSchema, Status extends TSchema> = ReturnType<
  typeof objectSchema<Spec, Status>
>;

export interface KindOptions<Spec extends TSchema, Status extends TSchema> {
  /** kubevirt.io/v1 unless given. */
  group?: string;
  version?: string;
  kind: string;
  plural: string;
  shortNames: readonly string[];
  categories: readonly string[];
  /** Namespaced unless false. */
  namespaced?: boolean;
  spec: Spec;
  status: Status;
  printerColumns: readonly PrinterColumn[];
  subresources: Subresources;
  description: string;
}

export function defineKind<Spec extends TSchema, Status extends TSchema>(
  options: KindOptions<Spec, Status>,
): KindDefinition<Spec, Status> {
  const schema = objectSchema(options.spec, options.status);
  const group = options.group ?? GROUP;
  const version = options.version ?? VERSION;
  return {
    group,
    version,
    apiVersion: `${group}/${version}`,
    kind: options.kind,
    listKind: `${options.kind}List`,
    plural: options.plural,
    singular: options.kind.toLowerCase(),
    shortNames: options.shortNames,
    categories: options.categories,
    namespaced: options.namespaced ?? true,
    schema,
    specSchema: options.spec,
    statusSchema: options.status,
    validator: compileValidator(schema),
    printerColumns: options.printerColumns,
    subresources: options.subresources,
    description: options.description,
  };
}
