import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Node, Pod } from "../kinds.js";
import { podFitsNode } from "./node-affinity.js";
import { tolerates, untoleratedTaint } from "./taints.js";

const node: Node = {
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "n1", labels: { zone: "a", cores: "16" } },
  spec: { taints: [{ key: "dedicated", value: "infra", effect: "NoSchedule" }] },
};

type PodSpec = NonNullable<Pod["spec"]>;
const spec = (extra: Partial<PodSpec>): PodSpec => ({ containers: [{ name: "c" }], ...extra });
const required = (terms: unknown[]): Partial<PodSpec> =>
  ({
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
    },
  }) as Partial<PodSpec>;

describe("node placement rules", () => {
  test("nodeSelector must match every label", () => {
    assert.ok(podFitsNode(spec({ nodeSelector: { zone: "a" } }), node));
    assert.ok(!podFitsNode(spec({ nodeSelector: { zone: "a", disk: "ssd" } }), node));
  });

  test("required node affinity: any term, all requirements, matchFields on metadata.name, Gt/Lt on integers", () => {
    assert.ok(
      podFitsNode(
        spec(required([{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }])),
        node,
      ),
    );
    assert.ok(
      !podFitsNode(
        spec(required([{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n2"] }] }])),
        node,
      ),
    );
    assert.ok(
      podFitsNode(
        spec(required([{ matchExpressions: [{ key: "zone", operator: "NotIn", values: ["b"] }] }])),
        node,
      ),
    );
    assert.ok(
      podFitsNode(
        spec(required([{ matchExpressions: [{ key: "cores", operator: "Gt", values: ["8"] }] }])),
        node,
      ),
    );
    assert.ok(
      !podFitsNode(
        spec(required([{ matchExpressions: [{ key: "cores", operator: "Lt", values: ["8"] }] }])),
        node,
      ),
    );
    assert.ok(
      podFitsNode(
        spec(
          required([
            { matchExpressions: [{ key: "gpu", operator: "Exists" }] },
            { matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] },
          ]),
        ),
        node,
      ),
    );
    assert.ok(!podFitsNode(spec(required([{}])), node), "an empty term matches nothing");
  });

  test("tolerations: Exists, Equal with value, effect and key wildcards", () => {
    const taint = { key: "dedicated", value: "infra", effect: "NoSchedule" as const };
    assert.ok(tolerates({ key: "dedicated", operator: "Exists" }, taint));
    assert.ok(tolerates({ key: "dedicated", value: "infra", effect: "NoSchedule" }, taint));
    assert.ok(!tolerates({ key: "dedicated", value: "other" }, taint));
    assert.ok(!tolerates({ key: "dedicated", operator: "Exists", effect: "NoExecute" }, taint));
    assert.ok(tolerates({ operator: "Exists" }, taint));
    assert.equal(untoleratedTaint(node.spec?.taints ?? [], [], ["NoSchedule"])?.key, "dedicated");
    assert.equal(untoleratedTaint(node.spec?.taints ?? [], [], ["NoExecute"]), undefined);
  });
});
