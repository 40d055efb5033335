// What the strategy's unit tests render from, and how they pick an object out of the result.
import assert from "node:assert/strict";
import type { KubeVirt, KubeVirtSpec } from "../../api/index.js";
import type { InstallStrategy, ManagedObject, OperatorIdentity } from "../strategy/install-strategy.js";

/** The release operator in its usual namespace. */
export const TEST_OPERATOR: OperatorIdentity = {
  namespace: "kubevirt",
  registry: "ghcr.io/kubevirt-ts",
  version: "v0.1.0",
};

/** The KubeVirt CR `kubevirt/kubevirt` with `spec`. */
export function testKubeVirt(spec: KubeVirtSpec = {}): KubeVirt {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "KubeVirt",
    metadata: { name: "kubevirt", namespace: "kubevirt" },
    spec,
  };
}

/** The rendered object of `kind` named `name`; fails the test when there is none. */
export function findRendered(strategy: InstallStrategy, kind: string, name: string): ManagedObject {
  const found = strategy.objects.find((object) => object.kind === kind && object.metadata.name === name);
  assert.ok(found, `no ${kind} ${name} in the strategy`);
  return found;
}
