import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { validateCustomResourceDefinition } from "../../dev-cluster/apiserver/crd/crd-validation.js";
import { checkStructuralSchema } from "../../dev-cluster/apiserver/crd/structural-schema.js";
import type { JsonObject } from "../../dev-cluster/apiserver/json.js";
import { REPOSITORY_ROOT } from "../testing/testdata.js";
import { buildCrd } from "./crd-builder.js";
import { KUBEVIRT_KINDS } from "./kubevirt-kinds.js";
import { renderAllCrds } from "./render.js";

const CRDS_DIR = join(REPOSITORY_ROOT, "crds");

function crdOf(kind: string): JsonObject {
  const definition = KUBEVIRT_KINDS.find((candidate) => candidate.kind === kind);
  assert.ok(definition, `no kind ${kind}`);
  return buildCrd(definition) as JsonObject;
}

function versionOf(crd: JsonObject): JsonObject {
  const spec = crd.spec as JsonObject;
  return (spec.versions as JsonObject[])[0] as JsonObject;
}

describe("crds/", () => {
  test("holds exactly what `npm run generate` writes now (fails when crds/ is stale)", () => {
    const generated = renderAllCrds();
    const onDisk = readdirSync(CRDS_DIR)
      .filter((name) => name.endsWith(".yaml"))
      .sort();
    assert.deepEqual(onDisk, generated.map((file) => file.fileName).sort(), "run `npm run generate`");
    for (const file of generated) {
      assert.equal(
        readFileSync(join(CRDS_DIR, file.fileName), "utf8"),
        file.text,
        `${file.fileName} is stale: run \`npm run generate\``,
      );
    }
  });

  test("rendering is deterministic", () => {
    assert.deepEqual(renderAllCrds(), renderAllCrds());
  });

  test("each file parses back to the CRD object", () => {
    for (const definition of KUBEVIRT_KINDS) {
      const file = renderAllCrds().find((candidate) =>
        candidate.fileName.startsWith(`${definition.plural}.`),
      );
      assert.ok(file);
      assert.deepEqual(parse(file.text), buildCrd(definition));
    }
  });
});

describe("CRD schemas", () => {
  for (const definition of KUBEVIRT_KINDS) {
    test(`${definition.kind}: structural, as the dev-cluster checker sees it`, () => {
      const schema = (versionOf(crdOf(definition.kind)).schema as JsonObject).openAPIV3Schema;
      assert.deepEqual(checkStructuralSchema(schema, "spec.versions[0].schema.openAPIV3Schema"), []);
    });

    test(`${definition.kind}: the whole CRD passes the API server's CRD validation`, () => {
      assert.deepEqual(validateCustomResourceDefinition(crdOf(definition.kind)), []);
    });

    test(`${definition.kind}: no $ref and every node typed`, () => {
      const text = JSON.stringify(crdOf(definition.kind));
      assert.ok(!text.includes('"$ref"'));
      const schema = (versionOf(crdOf(definition.kind)).schema as JsonObject).openAPIV3Schema as JsonObject;
      assert.deepEqual(untypedNodes(schema, ""), []);
    });
  }
});

/** Nodes without `type` that are neither int-or-string nor a junctor branch. */
function untypedNodes(node: JsonObject, path: string): string[] {
  const found: string[] = [];
  const intOrString = node["x-kubernetes-int-or-string"] === true;
  if (!intOrString && typeof node.type !== "string") found.push(path || "<root>");
  const properties = (node.properties ?? {}) as Record<string, JsonObject>;
  for (const [name, child] of Object.entries(properties))
    found.push(...untypedNodes(child, `${path}.${name}`));
  if (node.items !== undefined) found.push(...untypedNodes(node.items as JsonObject, `${path}[]`));
  if (typeof node.additionalProperties === "object" && node.additionalProperties !== null) {
    found.push(...untypedNodes(node.additionalProperties as JsonObject, `${path}{}`));
  }
  return found;
}

describe("names, printer columns and subresources (as KubeVirt's crds.go)", () => {
  const names = (kind: string) => (crdOf(kind).spec as JsonObject).names as JsonObject;

  test("short names and categories", () => {
    assert.deepEqual(names("VirtualMachine").shortNames, ["vm", "vms"]);
    assert.deepEqual(names("VirtualMachineInstance").shortNames, ["vmi", "vmis"]);
    assert.deepEqual(names("VirtualMachineInstanceReplicaSet").shortNames, ["vmirs", "vmirss"]);
    assert.deepEqual(names("VirtualMachineInstanceMigration").shortNames, ["vmim", "vmims"]);
    assert.deepEqual(names("KubeVirt").shortNames, ["kv", "kvs"]);
    assert.deepEqual(names("VirtualMachine").categories, ["all"]);
    assert.deepEqual(names("VirtualMachineInstance").categories, ["all"]);
  });

  test("printer columns of VM and VMI", () => {
    const columns = (kind: string) =>
      (versionOf(crdOf(kind)).additionalPrinterColumns as JsonObject[]).map((column) => [
        column.name,
        column.jsonPath,
      ]);
    assert.deepEqual(columns("VirtualMachine"), [
      ["Age", ".metadata.creationTimestamp"],
      ["Status", ".status.printableStatus"],
      ["Ready", ".status.conditions[?(@.type=='Ready')].status"],
    ]);
    assert.deepEqual(columns("VirtualMachineInstance").slice(0, 5), [
      ["Age", ".metadata.creationTimestamp"],
      ["Phase", ".status.phase"],
      ["IP", ".status.interfaces[0].ipAddress"],
      ["NodeName", ".status.nodeName"],
      ["Ready", ".status.conditions[?(@.type=='Ready')].status"],
    ]);
  });

  test("VM, VMIRS, VMIM and KubeVirt have a status subresource; the VMI has none", () => {
    for (const kind of [
      "VirtualMachine",
      "VirtualMachineInstanceReplicaSet",
      "VirtualMachineInstanceMigration",
      "KubeVirt",
    ]) {
      assert.deepEqual((versionOf(crdOf(kind)).subresources as JsonObject).status, {}, kind);
    }
    assert.equal(versionOf(crdOf("VirtualMachineInstance")).subresources, undefined);
    assert.deepEqual(
      (versionOf(crdOf("VirtualMachineInstanceReplicaSet")).subresources as JsonObject).scale,
      {
        specReplicasPath: ".spec.replicas",
        statusReplicasPath: ".status.replicas",
        labelSelectorPath: ".status.labelSelector",
      },
    );
  });

  test("template metadata keeps unknown fields, as KubeVirt declares it", () => {
    const spec = ((versionOf(crdOf("VirtualMachine")).schema as JsonObject).openAPIV3Schema as JsonObject)
      .properties as JsonObject;
    const template = ((spec.spec as JsonObject).properties as JsonObject).template as JsonObject;
    assert.deepEqual((template.properties as JsonObject).metadata, {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      nullable: true,
    });
  });
});
