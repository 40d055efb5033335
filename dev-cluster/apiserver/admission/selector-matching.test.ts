import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import type { AdmissionAttributes } from "./admission-attributes.js";
import { namespaceSelectorMatches, objectSelectorMatches } from "./selector-matching.js";
import type { Webhook } from "./webhook-configuration.js";

const types = builtinResourceTypes();
const typeOf = (plural: string): ResourceType =>
  types.find((t) => t.group === "" && t.plural === plural) as ResourceType;

const namespaceLabels = (name: string) =>
  ({ prod: { env: "prod" }, dev: { env: "dev" } })[name as "prod" | "dev"] as
    | Record<string, string>
    | undefined;

function attributes(fields: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: "CREATE",
    type: typeOf("configmaps"),
    subresource: "",
    name: "x",
    namespace: "prod",
    object: undefined,
    oldObject: undefined,
    dryRun: false,
    options: {},
    user: { username: "u", uid: "", groups: [] },
    ...fields,
  };
}

const withLabels = (labels: Record<string, string>): JsonObject => ({ metadata: { name: "x", labels } });
const webhook = (fields: Partial<Webhook>) =>
  ({ namespaceSelector: {}, objectSelector: {}, ...fields }) as Webhook;
const prodOnly = webhook({ namespaceSelector: { matchLabels: { env: "prod" } } });

describe("webhook selectors", () => {
  test("namespaceSelector is matched against the request's namespace labels", () => {
    assert.equal(
      namespaceSelectorMatches(prodOnly, attributes({ namespace: "prod" }), namespaceLabels),
      true,
    );
    assert.equal(
      namespaceSelectorMatches(prodOnly, attributes({ namespace: "dev" }), namespaceLabels),
      false,
    );
    const notIn = webhook({
      namespaceSelector: { matchExpressions: [{ key: "env", operator: "NotIn", values: ["prod"] }] },
    });
    assert.equal(namespaceSelectorMatches(notIn, attributes({ namespace: "dev" }), namespaceLabels), true);
  });

  test("cluster-scoped requests always match; a Namespace being written is matched by its own labels", () => {
    assert.equal(
      namespaceSelectorMatches(
        prodOnly,
        attributes({ type: typeOf("nodes"), namespace: "" }),
        namespaceLabels,
      ),
      true,
    );
    const creating = attributes({
      type: typeOf("namespaces"),
      namespace: "new",
      object: withLabels({ env: "prod" }),
    });
    assert.equal(namespaceSelectorMatches(prodOnly, creating, namespaceLabels), true);
    const deleting = attributes({ type: typeOf("namespaces"), namespace: "dev", operation: "DELETE" });
    assert.equal(namespaceSelectorMatches(prodOnly, deleting, namespaceLabels), false);
  });

  test("a namespace that does not exist is a 404, unless the selector is empty", () => {
    assert.throws(
      () => namespaceSelectorMatches(prodOnly, attributes({ namespace: "gone" }), namespaceLabels),
      (error: unknown) =>
        error instanceof ApiError && error.code === 404 && /namespaces "gone" not found/.test(error.message),
    );
    assert.equal(
      namespaceSelectorMatches(webhook({}), attributes({ namespace: "gone" }), namespaceLabels),
      true,
    );
  });

  test("objectSelector matches when the new or the old object's labels do", () => {
    const hooked = webhook({ objectSelector: { matchLabels: { hook: "yes" } } });
    assert.equal(objectSelectorMatches(hooked, attributes({ object: withLabels({ hook: "yes" }) })), true);
    assert.equal(
      objectSelectorMatches(
        hooked,
        attributes({ object: withLabels({}), oldObject: withLabels({ hook: "yes" }) }),
      ),
      true,
    );
    assert.equal(objectSelectorMatches(hooked, attributes({ object: withLabels({ hook: "no" }) })), false);
    assert.equal(objectSelectorMatches(webhook({}), attributes({})), true);
  });
});
