import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fakeResourceType } from "../discovery/testing/fake-resource-type.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { openApiDocument, openApiIndex } from "./openapi-v3.js";

const vm = fakeResourceType({
  group: "kubevirt.example.io",
  kind: "VirtualMachine",
  statusSubresource: true,
});
const pool = fakeResourceType({
  group: "kubevirt.example.io",
  kind: "Pool",
  namespaced: false,
  scaleSubresource: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
});
const pod = fakeResourceType({ group: "", kind: "Pod", builtin: true, statusSubresource: true });
const types = [vm, pool, pod];

function obj(value: JsonValue | undefined, what: string): JsonObject {
  assert.ok(isJsonObject(value), `${what} is an object`);
  return value;
}

function documentOf(path: string, from = types): JsonObject {
  const result = openApiDocument(from, path);
  assert.ok(result, `a document for ${path}`);
  return result.document;
}

/** Every PATCH operation of a document, with its path. */
function patchOperations(document: JsonObject): [string, JsonObject][] {
  return Object.entries(obj(document.paths, "paths")).flatMap(([path, item]) => {
    const patch = obj(item, path).patch;
    return patch === undefined ? [] : [[path, obj(patch, `${path} patch`)] as [string, JsonObject]];
  });
}

function parameterNames(operation: JsonObject): string[] {
  const parameters = operation.parameters;
  assert.ok(Array.isArray(parameters));
  return parameters.map((parameter) => String(obj(parameter, "parameter").name));
}

describe("openApiIndex", () => {
  test("lists every group-version with a hashed URL that matches its document", () => {
    const index = openApiIndex(types);
    const paths = obj(index.paths, "paths");
    assert.deepEqual(Object.keys(paths).sort(), ["api/v1", "apis/kubevirt.example.io/v1"]);
    const entry = obj(paths["apis/kubevirt.example.io/v1"], "entry");
    const hash = openApiDocument(types, "apis/kubevirt.example.io/v1")?.hash;
    assert.match(hash ?? "", /^[0-9A-F]{128}$/);
    assert.equal(entry.serverRelativeURL, `/openapi/v3/apis/kubevirt.example.io/v1?hash=${hash}`);
  });
});

describe("openApiDocument", () => {
  test("is undefined for a group-version nobody serves", () => {
    assert.equal(openApiDocument(types, "apis/kubevirt.example.io/v2"), undefined);
    assert.equal(openApiDocument(types, "api/v2"), undefined);
  });

  test("every PATCH operation carries its GVK as an object and a fieldValidation parameter", () => {
    for (const path of ["api/v1", "apis/kubevirt.example.io/v1"]) {
      const patches = patchOperations(documentOf(path));
      assert.ok(patches.length >= 2, `${path} has patch operations`);
      for (const [opPath, operation] of patches) {
        const gvk = obj(operation["x-kubernetes-group-version-kind"], `${opPath} GVK`);
        assert.deepEqual(Object.keys(gvk).sort(), ["group", "kind", "version"], opPath);
        assert.ok(parameterNames(operation).includes("fieldValidation"), `${opPath} has fieldValidation`);
        assert.ok(parameterNames(operation).includes("dryRun"), `${opPath} has dryRun`);
        assert.ok(parameterNames(operation).includes("fieldManager"), `${opPath} has fieldManager`);
      }
    }
  });

  test("the item path of a kind has get/put/patch/delete with the kind's GVK", () => {
    const paths = obj(documentOf("apis/kubevirt.example.io/v1").paths, "paths");
    const item = obj(
      paths["/apis/kubevirt.example.io/v1/namespaces/{namespace}/virtualmachines/{name}"],
      "item",
    );
    for (const method of ["get", "put", "patch", "delete"]) {
      assert.deepEqual(obj(item[method], method)["x-kubernetes-group-version-kind"], {
        group: "kubevirt.example.io",
        version: "v1",
        kind: "VirtualMachine",
      });
    }
    const collection = obj(
      paths["/apis/kubevirt.example.io/v1/namespaces/{namespace}/virtualmachines"],
      "list",
    );
    assert.ok(collection.get && collection.post);
    assert.ok(
      paths["/apis/kubevirt.example.io/v1/virtualmachines"],
      "all-namespaces list (kubectl explain looks here)",
    );
    assert.ok(paths["/apis/kubevirt.example.io/v1/pools/{name}"], "cluster-scoped item path");
    const scalePatch = obj(
      obj(paths["/apis/kubevirt.example.io/v1/pools/{name}/scale"], "scale").patch,
      "patch",
    );
    assert.deepEqual(scalePatch["x-kubernetes-group-version-kind"], {
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
    });
  });

  test("a create-only kind has only the POST of its collection", () => {
    const review = fakeResourceType({
      group: "authorization.k8s.io",
      kind: "SubjectAccessReview",
      namespaced: false,
      verbs: ["create"],
    });
    const paths = obj(documentOf("apis/authorization.k8s.io/v1", [review]).paths, "paths");
    assert.deepEqual(Object.keys(paths), ["/apis/authorization.k8s.io/v1/subjectaccessreviews"]);
    const item = obj(paths["/apis/authorization.k8s.io/v1/subjectaccessreviews"], "collection");
    assert.deepEqual(Object.keys(item).sort(), ["parameters", "post"]);
  });

  test("patch bodies: strategic merge only for built-in kinds", () => {
    const contentTypes = (path: string) => {
      const [, operation] = patchOperations(documentOf(path))[0] ?? [];
      return Object.keys(obj(obj(operation?.requestBody, "body").content, "content")).sort();
    };
    assert.deepEqual(contentTypes("apis/kubevirt.example.io/v1"), [
      "application/apply-patch+yaml",
      "application/json-patch+json",
      "application/merge-patch+json",
    ]);
    assert.ok(contentTypes("api/v1").includes("application/strategic-merge-patch+json"));
  });

  test("the kind schema carries its GVK array and explainable metadata", () => {
    const schemas = obj(
      obj(documentOf("apis/kubevirt.example.io/v1").components, "components").schemas,
      "schemas",
    );
    const schema = obj(schemas["io.example.kubevirt.v1.VirtualMachine"], "VM schema");
    assert.deepEqual(schema["x-kubernetes-group-version-kind"], [
      { group: "kubevirt.example.io", version: "v1", kind: "VirtualMachine" },
    ]);
    const properties = obj(schema.properties, "properties");
    assert.deepEqual(obj(properties.spec, "spec"), obj(vm.openApiSchema.properties, "fake properties").spec);
    assert.deepEqual(obj(properties.metadata, "metadata").allOf, [
      { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" },
    ]);
    const objectMeta = obj(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"], "ObjectMeta");
    assert.ok(obj(objectMeta.properties, "meta properties").labels);
    assert.ok(schemas["io.example.kubevirt.v1.VirtualMachineList"]);
    assert.equal(schemas["io.k8s.api.core.v1.Pod"], undefined, "other group-versions stay out");
    const coreSchemas = obj(obj(documentOf("api/v1").components, "components").schemas, "schemas");
    assert.ok(coreSchemas["io.k8s.api.core.v1.Pod"], "core kinds are named like upstream");
  });

  test("every $ref resolves inside the document", () => {
    for (const path of ["api/v1", "apis/kubevirt.example.io/v1"]) {
      const document = documentOf(path);
      const schemas = obj(obj(document.components, "components").schemas, "schemas");
      const refs: string[] = [];
      const walk = (value: JsonValue): void => {
        if (Array.isArray(value)) value.forEach(walk);
        else if (isJsonObject(value)) {
          for (const [key, child] of Object.entries(value)) {
            if (key === "$ref" && typeof child === "string") refs.push(child);
            else walk(child);
          }
        }
      };
      walk(document);
      assert.ok(refs.length > 0);
      for (const ref of refs) {
        assert.ok(schemas[ref.replace("#/components/schemas/", "")], `${path}: ${ref} resolves`);
      }
    }
  });

  test("the hash changes with a schema and not with object identity", () => {
    const path = "apis/kubevirt.example.io/v1";
    const before = openApiDocument(types, path);
    assert.equal(openApiDocument(types, path), before, "cached for the same types");
    const sameContent = openApiDocument([{ ...vm }, { ...pool }], path);
    assert.equal(sameContent?.hash, before?.hash);
    const changedSchema = structuredClone(vm.openApiSchema);
    changedSchema.description = "changed";
    const after = openApiDocument([{ ...vm, openApiSchema: changedSchema }, pool], path);
    assert.notEqual(after?.hash, before?.hash);
    const withNewKind = openApiDocument(
      [vm, pool, fakeResourceType({ group: "kubevirt.example.io", kind: "X" })],
      path,
    );
    assert.notEqual(withNewKind?.hash, before?.hash);
    assert.equal(openApiDocument(types, "api/v1")?.hash, openApiDocument([pod], "api/v1")?.hash);
  });
});
