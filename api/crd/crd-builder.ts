import type { TSchema } from "@sinclair/typebox";
import type { KindDefinition } from "../kind.js";
import { type OpenApiSchema, toOpenApiSchema } from "../schema/openapi.js";

/**
 * The apiextensions.k8s.io/v1 CustomResourceDefinition of a kind, as KubeVirt's operator
 * installs it (`crds.go`): namespaced or cluster-scoped, version v1 served and stored, the kind's printer columns
 * and subresources, and the structural schema emitted from the kind's TypeBox schema.
 */

export type CustomResourceDefinition = OpenApiSchema;

const API_VERSION_DESCRIPTION =
  "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.";
const KIND_DESCRIPTION =
  "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.";

/** KubeVirt labels its CRDs `kubevirt.io: ""`, except the KubeVirt CRD itself. */
function labelsOf(kind: string): Record<string, string> {
  return kind === "KubeVirt" ? { "operator.kubevirt.io": "" } : { "kubevirt.io": "" };
}

export function crdName(definition: KindDefinition<TSchema, TSchema>): string {
  return `${definition.plural}.${definition.group}`;
}

export function buildCrd(definition: KindDefinition<TSchema, TSchema>): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName(definition), labels: labelsOf(definition.kind) },
    spec: {
      group: definition.group,
      names: {
        kind: definition.kind,
        listKind: definition.listKind,
        plural: definition.plural,
        singular: definition.singular,
        shortNames: [...definition.shortNames],
        categories: [...definition.categories],
      },
      scope: definition.namespaced ? "Namespaced" : "Cluster",
      versions: [
        {
          name: definition.version,
          served: true,
          storage: true,
          additionalPrinterColumns: definition.printerColumns.map((column) => ({ ...column })),
          schema: { openAPIV3Schema: rootSchema(definition) },
          ...subresourcesOf(definition),
        },
      ],
    },
  };
}

/** The object's schema: metadata stays `type: object` (the API server owns ObjectMeta). */
export function rootSchema(definition: KindDefinition<TSchema, TSchema>): OpenApiSchema {
  return {
    description: definition.description,
    type: "object",
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: "string" },
      kind: { description: KIND_DESCRIPTION, type: "string" },
      metadata: { type: "object" },
      spec: toOpenApiSchema(definition.specSchema, "spec"),
      status: toOpenApiSchema(definition.statusSchema, "status"),
    },
    required: ["spec"],
  };
}

function subresourcesOf(definition: KindDefinition<TSchema, TSchema>): OpenApiSchema {
  const { status, scale } = definition.subresources;
  if (status === undefined && scale === undefined) return {};
  const subresources: OpenApiSchema = {};
  if (status) subresources.status = {};
  if (scale !== undefined) subresources.scale = { ...scale };
  return { subresources };
}
