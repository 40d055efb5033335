/**
 * The common set installed by the KubeVirt reconciler on the dev API server (with the kubevirt.io
 * CRDs): applied once the install is complete, no writes in a steady state, a hand edit repaired,
 * and everything removed when the CR turns `commonInstancetypesDeployment` off. In order, on one
 * cluster.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { clusterInstancetypeKind, clusterPreferenceKind } from "../../api/index.js";
import { eventKind } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { kubeVirtKind } from "../kinds.js";
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE, type RenderStrategy } from "../strategy/install-strategy.js";
import { renderContextOf } from "../strategy/render-context.js";
import {
  type OperatorTestCluster,
  type RunningOperator,
  reconciledAfter,
  startOperatorTestCluster,
} from "../testing/operator-test-cluster.js";
import { renderTestStrategy, TEST_NAMESPACE } from "../testing/test-strategy.js";
import { WriteCounter } from "../testing/write-counter.js";
import { commonSet } from "./common-set.js";
import { renderCommonInstancetypes } from "./render-common-instancetypes.js";

/** The test strategy with the common set, rendered from the CR as the real strategy renders it. */
const withCommonSet: RenderStrategy = (operator, kubevirt, trust) => {
  const context = renderContextOf(operator, kubevirt, trust);
  return {
    ...renderTestStrategy(operator, kubevirt, trust),
    commonInstancetypes: context.commonInstancetypesEnabled ? renderCommonInstancetypes(context) : [],
  };
};

const SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
const KUBEVIRT_KEY = `${TEST_NAMESPACE}/kubevirt`;
const EXPECTED = commonSet();

describe("virt-operator installs the common instancetypes and preferences", () => {
  let cluster: OperatorTestCluster;
  let operator: RunningOperator;

  before(async () => {
    cluster = await startOperatorTestCluster();
    operator = await cluster.startOperator({ renderStrategy: withCommonSet });
  });
  after(async () => {
    await cluster?.close();
  });

  const installed = async () => ({
    instancetypes: (await cluster.client.resource(clusterInstancetypeKind).list({ labelSelector: SELECTOR }))
      .items,
    preferences: (await cluster.client.resource(clusterPreferenceKind).list({ labelSelector: SELECTOR }))
      .items,
  });

  test("none before the components are available; all of them once they are", async () => {
    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: TEST_NAMESPACE },
      spec: {},
    });
    await eventually("the test strategy's workloads created, the CR Deploying", async () => {
      const objects = await cluster.managedObjects();
      const created =
        objects.has(`Deployment ${TEST_NAMESPACE}/test-controller`) &&
        objects.has(`DaemonSet ${TEST_NAMESPACE}/test-handler`);
      return created && (await cluster.kubevirt())?.status?.phase === "Deploying" ? true : undefined;
    });
    assert.equal((await installed()).instancetypes.length, 0, "nothing before the webhooks can answer");
    await cluster.markWorkloadsAvailable();
    const done = await eventually("the common set installed", async () => {
      const now = await installed();
      return now.instancetypes.length === EXPECTED.instancetypes.length &&
        now.preferences.length === EXPECTED.preferences.length
        ? now
        : undefined;
    });
    const small = done.instancetypes.find((instancetype) => instancetype.metadata?.name === "u1.small");
    assert.deepEqual(small?.spec, { cpu: { guest: 1 }, memory: { guest: "2Gi" } });
    assert.equal(
      small?.metadata?.labels?.["instancetype.kubevirt.io/common-instancetypes-version"],
      "v1.7.0",
    );
    assert.ok(done.preferences.some((preference) => preference.metadata?.name === "fedora"));
    assert.ok(done.instancetypes.some((instancetype) => instancetype.metadata?.name === "cx1.medium"));
  });

  test("a steady state writes nothing", async () => {
    // The install's events are sent after the pass that records them: let them land first.
    await eventually("the CommonInstancetypesApplied event", async () => {
      const events = await cluster.client.resource(eventKind).list({ namespace: TEST_NAMESPACE });
      return events.items.some((event) => event.reason === "CommonInstancetypesApplied") ? true : undefined;
    });
    const settled = await operator.reconciles();
    operator.controller.enqueue(KUBEVIRT_KEY);
    await reconciledAfter(operator, settled);
    const counter = new WriteCounter("virt-operator");
    try {
      for (let round = 0; round < 2; round++) {
        const since = await operator.reconciles();
        operator.controller.enqueue(KUBEVIRT_KEY);
        await reconciledAfter(operator, since);
      }
      assert.deepEqual(counter.writes, [], "no request but reads");
    } finally {
      counter.stop();
    }
  });

  test("an instancetype edited by hand is restored on the next pass", async () => {
    const instancetypes = cluster.client.resource(clusterInstancetypeKind);
    await instancetypes.mergePatch({ name: "u1.small" }, { spec: { cpu: { guest: 4 } } });
    operator.controller.enqueue(KUBEVIRT_KEY);
    await eventually("u1.small restored", async () =>
      (await instancetypes.get({ name: "u1.small" })).spec.cpu.guest === 1 ? true : undefined,
    );
  });

  test("commonInstancetypesDeployment.enabled: false removes them, true brings them back", async () => {
    const kubevirts = cluster.client.resource(kubeVirtKind);
    const setEnabled = (enabled: boolean) =>
      kubevirts.mergePatch(
        { namespace: TEST_NAMESPACE, name: "kubevirt" },
        { spec: { configuration: { commonInstancetypesDeployment: { enabled } } } },
      );
    await setEnabled(false);
    await eventually("the common set removed", async () => {
      const now = await installed();
      return now.instancetypes.length === 0 && now.preferences.length === 0 ? true : undefined;
    });
    await setEnabled(true);
    await eventually("the common set back", async () =>
      (await installed()).instancetypes.length === EXPECTED.instancetypes.length ? true : undefined,
    );
  });
});
