import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze, type Frozen } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { OPERATOR_FINALIZER } from "../strategy/install-strategy.js";
import { electActiveKubeVirt, MULTIPLE_KUBEVIRTS, OUTSIDE_NAMESPACE } from "./active-kubevirt.js";

function kubevirt(
  name: string,
  created: string,
  extra: { namespace?: string; finalizers?: string[] } = {},
): Frozen<KubeVirt> {
  return deepFreeze({
    metadata: {
      name,
      namespace: extra.namespace ?? "kubevirt",
      creationTimestamp: created,
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    },
    spec: {},
  });
}

describe("electActiveKubeVirt", () => {
  test("the oldest is active; the others are refused naming it", () => {
    const older = kubevirt("b", "2024-01-01T00:00:00Z");
    const newer = kubevirt("a", "2024-01-01T00:00:05Z");
    const election = electActiveKubeVirt([newer, older], "kubevirt");
    assert.equal(election.active, older);
    assert.equal(election.refused.get("kubevirt/a")?.reason, MULTIPLE_KUBEVIRTS);
    assert.match(election.refused.get("kubevirt/a")?.message ?? "", /KubeVirt kubevirt\/b is already active/);
    assert.equal(election.refused.has("kubevirt/b"), false);
  });

  test("same creation second: the name decides", () => {
    const election = electActiveKubeVirt(
      [kubevirt("z", "2024-01-01T00:00:00Z"), kubevirt("m", "2024-01-01T00:00:00Z")],
      "kubevirt",
    );
    assert.equal(election.active?.metadata?.name, "m");
  });

  test("the one holding the finalizer stays active even if another sorts first", () => {
    const installed = kubevirt("z", "2024-01-01T00:00:00Z", { finalizers: [OPERATOR_FINALIZER] });
    const election = electActiveKubeVirt([kubevirt("a", "2024-01-01T00:00:00Z"), installed], "kubevirt");
    assert.equal(election.active, installed);
  });

  test("a CR outside the operator's namespace is never active", () => {
    const elsewhere = kubevirt("kubevirt", "2020-01-01T00:00:00Z", { namespace: "other" });
    const election = electActiveKubeVirt([elsewhere], "kubevirt");
    assert.equal(election.active, undefined);
    assert.equal(election.refused.get("other/kubevirt")?.reason, OUTSIDE_NAMESPACE);
  });

  test("no CR: nothing active, nothing refused", () => {
    const election = electActiveKubeVirt([], "kubevirt");
    assert.equal(election.active, undefined);
    assert.equal(election.refused.size, 0);
  });
});
