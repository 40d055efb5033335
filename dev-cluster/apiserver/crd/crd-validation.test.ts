import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cloneJson, type JsonObject } from "../json.js";
import { defaultCustomResourceDefinition, validateCustomResourceDefinition } from "./crd-validation.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    spec: { type: "object", properties: { replicas: { type: "integer" } } },
    status: { type: "object" },
  },
};

function crd(changes: (crd: JsonObject) => void = () => {}): JsonObject {
  const object: JsonObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: cloneJson(SCHEMA) } }],
    },
  };
  defaultCustomResourceDefinition(object);
  changes(object);
  return object;
}

function spec(object: JsonObject): JsonObject {
  return object.spec as JsonObject;
}

function version(object: JsonObject, position = 0): JsonObject {
  return (spec(object).versions as JsonObject[])[position] as JsonObject;
}

function lines(object: JsonObject, old?: JsonObject): string[] {
  return validateCustomResourceDefinition(object, old).map(
    (cause) => `${cause.field ?? ""}: ${cause.message}`,
  );
}

describe("validateCustomResourceDefinition", () => {
  const cases: { name: string; change: (crd: JsonObject) => void; expected: string[] }[] = [
    { name: "a valid CRD", change: () => {}, expected: [] },
    {
      name: "the name must be plural.group",
      change: (c) => {
        (c.metadata as JsonObject).name = "widget.example.com";
      },
      expected: [
        'metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
      ],
    },
    {
      name: "the group needs a dot",
      change: (c) => {
        spec(c).group = "example";
        (c.metadata as JsonObject).name = "widgets.example";
      },
      expected: ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
    },
    {
      name: "scope is Namespaced or Cluster",
      change: (c) => {
        spec(c).scope = "Global";
      },
      expected: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
    },
    {
      name: "names are DNS labels; kind may have mixed case",
      change: (c) => {
        spec(c).names = {
          plural: "Widgets",
          singular: "widget",
          kind: "Wid_get",
          listKind: "Wid_get",
          shortNames: ["w-"],
        };
        (c.metadata as JsonObject).name = "Widgets.example.com";
      },
      expected: [
        "metadata.name: Invalid value: \"Widgets.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.names.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.names.kind: Invalid value: \"Wid_get\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.names.listKind: Invalid value: \"Wid_get\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.names.shortNames[0]: Invalid value: \"w-\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'spec.names.listKind: Invalid value: "Wid_get": kind and listKind may not be the same',
      ],
    },
    {
      name: "exactly one storage version, unique names",
      change: (c) => {
        spec(c).versions = [
          { name: "v1", served: true, storage: false, schema: { openAPIV3Schema: cloneJson(SCHEMA) } },
          { name: "v1", served: true, storage: false, schema: { openAPIV3Schema: cloneJson(SCHEMA) } },
        ];
      },
      expected: [
        'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, ...}, apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, ...}}: must contain unique version names',
        'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, ...}, apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, ...}}: must have exactly one version marked as storage version',
      ],
    },
    {
      name: "v1 requires a schema for every version",
      change: (c) => {
        delete version(c).schema;
      },
      expected: ["spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"],
    },
    {
      name: "a schema shared by all versions is reported at spec.validation, as kube does",
      change: (c) => {
        const properties = (version(c).schema as JsonObject).openAPIV3Schema as JsonObject;
        (properties.properties as JsonObject).spec = { properties: {} };
      },
      expected: [
        "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
      ],
    },
    {
      name: "per-version schemas are reported per version",
      change: (c) => {
        const second = cloneJson(version(c));
        second.name = "v2";
        second.storage = false;
        spec(c).versions = [version(c), second];
        (((second.schema as JsonObject).openAPIV3Schema as JsonObject).properties as JsonObject).spec = {
          properties: {},
        };
      },
      expected: [
        "spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
      ],
    },
    {
      name: "with a status subresource the root schema may only use some keywords",
      change: (c) => {
        version(c).subresources = { status: {} };
        const schema = (version(c).schema as JsonObject).openAPIV3Schema as JsonObject;
        schema.anyOf = [{ required: ["spec"] }];
      },
      expected: [
        "spec.validation.openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{...}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled",
      ],
    },
    {
      name: "scale paths and printer columns",
      change: (c) => {
        version(c).subresources = {
          scale: { specReplicasPath: "spec.replicas", statusReplicasPath: ".spec.replicas" },
        };
        version(c).additionalPrinterColumns = [
          { name: "Ready", type: "text", jsonPath: "" },
          { name: "", type: "integer", jsonPath: "status" },
        ];
      },
      expected: [
        'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        "spec.additionalPrinterColumns[0].JSONPath: Required value",
        "spec.additionalPrinterColumns[1].name: Required value",
        'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "status": must be a simple json path starting with .',
      ],
    },
    {
      name: "selectable fields point at scalar fields outside metadata",
      change: (c) => {
        version(c).selectableFields = [
          { jsonPath: ".spec.replicas" },
          { jsonPath: ".spec" },
          { jsonPath: ".spec.missing" },
          { jsonPath: ".spec.replicas" },
        ];
      },
      expected: [
        'spec.selectableFields[1].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        'spec.selectableFields[2].jsonPath: Invalid value: ".spec.missing": is an invalid path: does not refer to a valid field',
        'spec.selectableFields[3].jsonPath: Duplicate value: ".spec.replicas"',
      ],
    },
    {
      name: "webhook conversion needs a client config and review versions",
      change: (c) => {
        spec(c).conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v2"] } };
      },
      expected: [
        "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
        'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      ],
    },
    {
      name: "protected groups need the approval annotation",
      change: (c) => {
        spec(c).group = "widgets.k8s.io";
        (c.metadata as JsonObject).name = "widgets.widgets.k8s.io";
      },
      expected: [
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    },
    {
      name: "preserveUnknownFields may not be set in v1",
      change: (c) => {
        spec(c).preserveUnknownFields = true;
      },
      expected: [
        "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in openAPIV3Schema instead",
      ],
    },
  ];

  for (const { name, change, expected } of cases) {
    test(name, () => {
      assert.deepEqual(lines(crd(change)), expected);
    });
  }

  test("on update, group and plural are immutable, and kind and scope too once established", () => {
    const old = crd((c) => {
      c.status = { conditions: [{ type: "Established", status: "True" }], storedVersions: ["v1"] };
    });
    const changed = crd((c) => {
      spec(c).scope = "Cluster";
      (spec(c).names as JsonObject).kind = "Gadget";
      (spec(c).names as JsonObject).listKind = "GadgetList";
    });
    assert.deepEqual(lines(changed, old), [
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
    ]);
  });

  test("on update, a stored version may not disappear", () => {
    const old = crd((c) => {
      c.status = { storedVersions: ["v1alpha1", "v1"] };
    });
    const changed = cloneJson(old);
    assert.deepEqual(lines(changed, old), [
      'status.storedVersions[0]: Invalid value: "v1alpha1": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions',
    ]);
  });

  test("causes carry kube reasons", () => {
    const causes = validateCustomResourceDefinition(
      crd((c) => {
        spec(c).scope = "";
      }),
    );
    assert.deepEqual(causes, [
      { reason: "FieldValueRequired", field: "spec.scope", message: "Required value" },
    ]);
  });
});

describe("defaultCustomResourceDefinition", () => {
  test("fills singular, listKind and conversion, and the webhook port", () => {
    const object: JsonObject = {
      spec: {
        names: { plural: "widgets", kind: "Widget" },
        conversion: {
          strategy: "Webhook",
          webhook: { clientConfig: { service: { name: "s", namespace: "n" } } },
        },
      },
    };
    defaultCustomResourceDefinition(object);
    assert.deepEqual(spec(object).names, {
      plural: "widgets",
      kind: "Widget",
      singular: "widget",
      listKind: "WidgetList",
    });
    assert.deepEqual(spec(object).conversion, {
      strategy: "Webhook",
      webhook: { clientConfig: { service: { name: "s", namespace: "n", port: 443 } } },
    });
  });

  test("keeps what is set and defaults conversion to None", () => {
    const object: JsonObject = { spec: { names: { kind: "Widget", singular: "w", listKind: "Widgets" } } };
    defaultCustomResourceDefinition(object);
    assert.deepEqual(spec(object), {
      names: { kind: "Widget", singular: "w", listKind: "Widgets" },
      conversion: { strategy: "None" },
    });
  });
});
