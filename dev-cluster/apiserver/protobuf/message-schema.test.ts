import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { kubernetesMessages } from "./kind-messages.js";
import { compileMessageSchemas, type FieldSchema } from "./message-schema.js";

describe("compileMessageSchemas", () => {
  test("parses each notation", () => {
    const schemas = compileMessageSchemas([
      {
        Outer: {
          1: "name string",
          2: "replicas *int32",
          3: "value int32 keepZero",
          4: "items []Inner",
          5: "labels map[string]",
          6: "... Inner",
          7: "when Time",
        },
        Inner: { 1: "data map[bytes]" },
      },
    ]);
    const fields = [...(schemas.get("Outer")?.fields.values() ?? [])];
    const summary = fields.map((f: FieldSchema) => [
      f.number,
      f.jsonName,
      f.cardinality,
      f.value.kind,
      f.keepZero,
    ]);
    assert.deepEqual(summary, [
      [1, "name", "single", "scalar", false],
      [2, "replicas", "single", "scalar", true],
      [3, "value", "single", "scalar", true],
      [4, "items", "repeated", "message", false],
      [5, "labels", "map", "scalar", false],
      [6, undefined, "single", "message", false],
      [7, "when", "single", "special", false],
    ]);
  });

  const broken: [string, Record<number, string>, RegExp][] = [
    ["an unknown message", { 1: "spec Missing" }, /unknown message Missing/],
    ["an unparsable field", { 1: "spec" }, /cannot parse/],
    ["an unclosed map", { 1: "labels map[string" }, /cannot parse/],
    ["an inlined scalar", { 1: "... string" }, /only a single message/],
    ["an inlined list", { 1: "... []Broken" }, /only a single message/],
  ];
  for (const [name, table, message] of broken) {
    test(`rejects ${name}`, () => assert.throws(() => compileMessageSchemas([{ Broken: table }]), message));
  }

  test("rejects a message defined twice", () => {
    assert.throws(() => compileMessageSchemas([{ A: {} }, { A: {} }]), /defined twice/);
  });
});

describe("the Kubernetes tables", () => {
  // Spot checks against upstream's generated.proto and types.go (k8s.io/api v0.32).
  const cases: [string, number, string, string, boolean][] = [
    ["ObjectMeta", 8, "creationTimestamp", "Time", false],
    ["ObjectMeta", 10, "deletionGracePeriodSeconds", "int64", true],
    ["DeploymentSpec", 1, "replicas", "int32", true],
    ["ServicePort", 3, "port", "int32", true],
    ["ServicePort", 4, "targetPort", "IntOrString", false],
    ["ServiceSpec", 10, "externalName", "string", false],
    ["PolicyRule", 5, "nonResourceURLs", "string", false],
    ["PriorityClass", 2, "value", "int32", true],
    ["PodDisruptionBudgetSpec", 1, "minAvailable", "IntOrString", false],
    ["CronJobSpec", 5, "jobTemplate", "JobTemplateSpec", false],
    ["Secret", 2, "data", "bytes", false],
  ];
  for (const [message, number, jsonName, type, keepZero] of cases) {
    test(`${message} field ${number} is ${jsonName}`, () => {
      const field = kubernetesMessages.get(message)?.fields.get(number);
      const typeName =
        field?.value.kind === "scalar"
          ? field.value.scalar
          : field?.value.kind === "special"
            ? field.value.special
            : field?.value.message;
      assert.deepEqual([field?.jsonName, typeName, field?.keepZero], [jsonName, type, keepZero]);
    });
  }

  test('inline Probe handler and Volume source as Go\'s json:",inline" does', () => {
    assert.equal(kubernetesMessages.get("Probe")?.fields.get(1)?.jsonName, undefined);
    assert.equal(kubernetesMessages.get("Volume")?.fields.get(2)?.jsonName, undefined);
  });
});
