import type { ResourceType } from "../../resource-type.js";

/**
 * A minimal ResourceType for tests of code that only reads a type's names and schema (discovery,
 * OpenAPI). Behaviour hooks do nothing.
 */
export function fakeResourceType(
  overrides: Partial<ResourceType> & Pick<ResourceType, "kind">,
): ResourceType {
  const lowerKind = overrides.kind.toLowerCase();
  return {
    group: "example.io",
    version: "v1",
    listKind: `${overrides.kind}List`,
    plural: `${lowerKind}s`,
    singular: lowerKind,
    namespaced: true,
    shortNames: [],
    categories: [],
    builtin: false,
    statusSubresource: false,
    otherSubresources: [],
    applyDefaults: () => {},
    prune: () => [],
    validate: () => [],
    validateStatus: () => [],
    selectableFields: () => ({}),
    table: { columns: [], cells: () => [] },
    fieldSemantics: () => undefined,
    openApiSchema: {
      type: "object",
      description: `${overrides.kind} is a test kind.`,
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        metadata: { type: "object" },
        spec: { type: "object", properties: { size: { type: "integer", description: "How big." } } },
      },
    },
    ...overrides,
  };
}
