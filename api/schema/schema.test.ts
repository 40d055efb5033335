import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Type } from "@sinclair/typebox";
import {
  IntOrString,
  Nullable,
  PreservingObject,
  QuantityValue,
  StringEnum,
  StringMap,
  Timestamp,
} from "./kube-types.js";
import { NonStructuralSchemaError, toOpenApiSchema } from "./openapi.js";
import { compileValidator, fieldPathOf } from "./validator.js";

describe("toOpenApiSchema", () => {
  test("objects list properties and required fields in a stable order", () => {
    const schema = Type.Object({ b: Type.Optional(Type.String()), a: Type.Integer() });
    assert.deepEqual(toOpenApiSchema(schema), {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "string" } },
      required: ["a"],
    });
  });

  test("literal unions become enums; T | null becomes nullable", () => {
    assert.deepEqual(toOpenApiSchema(StringEnum(["A", "B"])), { type: "string", enum: ["A", "B"] });
    assert.deepEqual(toOpenApiSchema(Nullable(Timestamp())), {
      type: "string",
      format: "date-time",
      nullable: true,
    });
  });

  test("maps use additionalProperties; int-or-string and quantities use KubeVirt's form", () => {
    assert.deepEqual(toOpenApiSchema(StringMap()), {
      type: "object",
      additionalProperties: { type: "string" },
    });
    assert.deepEqual(toOpenApiSchema(IntOrString()), {
      anyOf: [{ type: "integer" }, { type: "string" }],
      "x-kubernetes-int-or-string": true,
    });
    const quantity = toOpenApiSchema(QuantityValue());
    assert.equal(quantity["x-kubernetes-int-or-string"], true);
    assert.equal(typeof quantity.pattern, "string");
  });

  test("a preserving object keeps unknown fields and lists nothing", () => {
    assert.deepEqual(toOpenApiSchema(PreservingObject({ labels: Type.Optional(StringMap()) })), {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
    });
  });

  test("refuses what has no structural form, naming where", () => {
    assert.throws(
      () => toOpenApiSchema(Type.Object({ spec: Type.Object({ x: Type.Any() }) })),
      (error: unknown) => error instanceof NonStructuralSchemaError && error.path === "spec.x",
    );
    assert.throws(
      () => toOpenApiSchema(Type.Union([Type.String(), Type.Integer()])),
      NonStructuralSchemaError,
    );
  });
});

describe("compileValidator", () => {
  const schema = Type.Object({
    spec: Type.Object({
      disks: Type.Array(
        Type.Object({ name: Type.String(), bus: Type.Optional(StringEnum(["virtio", "sata"])) }),
      ),
      requests: Type.Optional(Type.Record(Type.String(), QuantityValue())),
    }),
  });
  const validator = compileValidator(schema);

  test("accepts a valid value, and unknown fields", () => {
    const value = {
      spec: { disks: [{ name: "root", bus: "virtio", extra: 1 }], requests: { memory: "1Gi" } },
    };
    assert.ok(validator.check(value));
    assert.deepEqual(validator.validate(value), []);
  });

  test("reports each problem once, with a Kubernetes field path", () => {
    const causes = validator.validate({ spec: { disks: [{ bus: "ide" }], requests: { memory: "lots" } } });
    assert.deepEqual(
      causes.map((cause) => [cause.field, cause.reason]),
      [
        ["spec.disks[0].name", "FieldValueRequired"],
        ["spec.disks[0].bus", "FieldValueNotSupported"],
        ["spec.requests.memory", "FieldValueInvalid"],
      ],
    );
  });

  test("maps JSON pointers through arrays, maps and nullable nodes", () => {
    assert.equal(fieldPathOf(schema, "/spec/disks/3/name"), "spec.disks[3].name");
    assert.equal(fieldPathOf(schema, "/spec/requests/nvidia.com~1gpu"), "spec.requests.nvidia.com/gpu");
  });
});
