import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PolicyRule } from "./policy-rule.js";
import { breakdownRule, covers } from "./rule-coverage.js";

function rule(fields: Partial<PolicyRule>): PolicyRule {
  return { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...fields };
}

describe("rule coverage (rbac Covers)", () => {
  test("a rule breaks down into one permission per verb, group, resource and name", () => {
    const atoms = breakdownRule(
      rule({ verbs: ["get", "list"], apiGroups: ["", "apps"], resources: ["pods"], nonResourceURLs: ["/x"] }),
    );
    assert.equal(atoms.length, 2 * 2 + 2);
    assert.deepEqual(atoms[0], rule({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }));
    assert.deepEqual(atoms.at(-1), rule({ verbs: ["list"], nonResourceURLs: ["/x"] }));
  });

  const owned = [
    rule({ verbs: ["get", "list"], apiGroups: [""], resources: ["pods", "*/status"] }),
    rule({ verbs: ["*"], apiGroups: ["apps"], resources: ["deployments"], resourceNames: ["web"] }),
    rule({ verbs: ["get"], nonResourceURLs: ["/logs/*"] }),
  ];
  const cases: [string, PolicyRule, number][] = [
    ["the same rule", rule({ verbs: ["get"], apiGroups: [""], resources: ["pods"] }), 0],
    ["a verb more", rule({ verbs: ["get", "delete"], apiGroups: [""], resources: ["pods"] }), 1],
    [
      "any status through */status",
      rule({ verbs: ["list"], apiGroups: [""], resources: ["nodes/status"] }),
      0,
    ],
    [
      "the named object",
      rule({ verbs: ["patch"], apiGroups: ["apps"], resources: ["deployments"], resourceNames: ["web"] }),
      0,
    ],
    [
      "all objects when only one is owned",
      rule({ verbs: ["patch"], apiGroups: ["apps"], resources: ["deployments"] }),
      1,
    ],
    ["a URL under a prefix", rule({ verbs: ["get"], nonResourceURLs: ["/logs/a", "/metrics"] }), 1],
  ];
  for (const [name, wanted, missing] of cases) {
    test(name, () => {
      const result = covers(owned, [wanted]);
      assert.equal(result.missing.length, missing);
      assert.equal(result.covered, missing === 0);
    });
  }
});
