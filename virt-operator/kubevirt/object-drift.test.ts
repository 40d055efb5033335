import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import {
  IDENTIFIER_ANNOTATION,
  type InstallStrategy,
  MANAGED_BY_LABEL,
  type ManagedObject,
  VERSION_ANNOTATION,
} from "../strategy/install-strategy.js";
import type { InstalledObject } from "./managed-kinds.js";
import { applyReason, isInstalledByOperator, stampedObject } from "./object-drift.js";

const deployment: ManagedObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: {
    name: "virt-controller",
    namespace: "kubevirt",
    labels: { "kubevirt.io": "virt-controller" },
    annotations: {},
  },
  spec: { replicas: 2 },
};
const strategy: InstallStrategy = { registry: "r", version: "v1", id: "id-1", objects: [deployment] };

function live(
  object: ManagedObject,
  edit: (copy: InstalledObject & { spec: { replicas: number } }) => void = () => {},
) {
  const copy = structuredClone(object) as InstalledObject & { spec: { replicas: number } };
  delete copy.apiVersion;
  delete copy.kind;
  copy.metadata = { ...copy.metadata, uid: "u", resourceVersion: "7", generation: 1 };
  (copy as Record<string, unknown>).status = { replicas: 2 };
  edit(copy);
  return deepFreeze(copy as InstalledObject);
}

describe("object drift", () => {
  const desired = stampedObject(deployment, strategy);

  test("stamping adds the managed-by label and the strategy's annotations, keeping the object's own", () => {
    assert.equal(desired.metadata.labels[MANAGED_BY_LABEL], "virt-operator");
    assert.equal(desired.metadata.labels["kubevirt.io"], "virt-controller");
    assert.equal(desired.metadata.annotations[IDENTIFIER_ANNOTATION], "id-1");
    assert.equal(desired.metadata.annotations[VERSION_ANNOTATION], "v1");
    assert.equal(
      deployment.metadata.labels[MANAGED_BY_LABEL],
      undefined,
      "the strategy's object is not changed",
    );
  });

  test("missing, outdated, drifted, or nothing to do", () => {
    assert.equal(applyReason(desired, undefined, "id-1"), "missing");
    assert.equal(applyReason(desired, live(desired), "id-1"), undefined);
    assert.equal(applyReason(desired, live(desired), "id-2"), "outdated");
    assert.equal(
      applyReason(
        desired,
        live(desired, (copy) => {
          copy.spec.replicas = 5;
        }),
        "id-1",
      ),
      "drifted",
    );
    assert.equal(
      applyReason(
        desired,
        live(desired, (copy) => {
          delete copy.metadata?.labels?.[MANAGED_BY_LABEL];
        }),
        "id-1",
      ),
      "drifted",
    );
  });

  test("only objects with the strategy's identifier count as installed by the operator", () => {
    assert.equal(isInstalledByOperator(live(desired)), true);
    const labelledOnly = live(deployment, (copy) => {
      copy.metadata = { ...copy.metadata, labels: { [MANAGED_BY_LABEL]: "virt-operator" } };
    });
    assert.equal(isInstalledByOperator(labelledOnly), false);
  });
});
