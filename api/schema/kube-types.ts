import {
  type SchemaOptions,
  type TLiteral,
  type TObject,
  type TProperties,
  type TSchema,
  type TString,
  type TUnion,
  Type,
} from "@sinclair/typebox";
import { QUANTITY_PATTERN } from "../../runtime/quantity/quantity.js";

/**
 * TypeBox builders for the shapes Kubernetes APIs use. Every schema in api/ is built from these
 * and TypeBox's own Object/Array/Record/Boolean, which is exactly the set the CRD emitter
 * (openapi.ts) knows how to turn into a structural schema.
 */

/**
 * Marks an object whose CRD schema is `type: object` + `x-kubernetes-preserve-unknown-fields`
 * (KubeVirt does this for template metadata): the TypeScript type still lists its known fields.
 */
export const PRESERVE_UNKNOWN_FIELDS: unique symbol = Symbol.for("kubevirt-ts.preserveUnknownFields");

/** A string `format` for the CRD only: TypeBox would reject formats it has no checker for. */
export const CRD_FORMAT = "x-crd-format";

/** A string limited to a closed set of values: `enum` in the CRD, a literal union in TypeScript. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((value: T[number]) => Type.Literal(value)),
    options,
  );
}

/** IntOrString: `x-kubernetes-int-or-string` (ports, percentages). */
export function IntOrString(options: SchemaOptions = {}) {
  return Type.Union([Type.Integer(), Type.String()], { ...options, "x-kubernetes-int-or-string": true });
}

/**
 * A resource quantity (`2Gi`, `500m`, or a bare integer) as KubeVirt's CRDs declare it:
 * int-or-string with apimachinery's quantity pattern. Read it with Quantity.parse().
 */
export function QuantityValue(options: SchemaOptions = {}) {
  return Type.Union([Type.Integer(), Type.String({ pattern: QUANTITY_PATTERN })], {
    ...options,
    "x-kubernetes-int-or-string": true,
  });
}

/** A map of resource name → quantity (ResourceList). */
export function ResourceList(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), QuantityValue(), options);
}

/** metav1.Time: an RFC 3339 timestamp. */
export function Timestamp(options: SchemaOptions = {}): TString {
  return Type.String({ ...options, [CRD_FORMAT]: "date-time" });
}

/** A metav1.Time that Go serialises as `null` when zero (`+nullable` in KubeVirt's types). */
export function NullableTimestamp(options: SchemaOptions = {}) {
  return Nullable(Timestamp(), options);
}

/** `nullable: true` in the CRD; `T | null` in TypeScript. */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** metav1.Duration: Go duration text such as `1m0s`. */
export function Duration(options: SchemaOptions = {}): TString {
  return Type.String(options);
}

/** A map of string → string (labels, node selectors). */
export function StringMap(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), Type.String(), options);
}

/** An int32 field. */
export function Int32(options: SchemaOptions = {}) {
  return Type.Integer({ format: "int32", ...options });
}

/** An int64 field (exact in JavaScript up to 2^53). */
export function Int64(options: SchemaOptions = {}) {
  return Type.Integer({ format: "int64", ...options });
}

/** An empty marker struct such as `bridge: {}` or `rng: {}`. */
export function Marker(options: SchemaOptions = {}): TObject<Record<string, never>> {
  return Type.Object({}, options);
}

/** An object whose unknown fields the API server keeps (see PRESERVE_UNKNOWN_FIELDS). */
export function PreservingObject<T extends TProperties>(
  properties: T,
  options: SchemaOptions = {},
): TObject<T> {
  return Type.Object(properties, { ...options, [PRESERVE_UNKNOWN_FIELDS]: true });
}
