/**
 * The KubeVirt reconciler against the dev API server: install, drift repair (real kubectl),
 * a steady state without writes, an update that removes what is no longer rendered, and a
 * second CR. The tests run in order on one cluster and build on each other.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type CoreEvent, eventKind, objectKey } from "../../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { type KubeVirt, kubeVirtKind } from "../kinds.js";
import { IDENTIFIER_ANNOTATION, OPERATOR_FINALIZER } from "../strategy/install-strategy.js";
import {
  daemonSetKind,
  deploymentKind,
  type OperatorTestCluster,
  type RunningOperator,
  reconciledAfter,
  startOperatorTestCluster,
} from "../testing/operator-test-cluster.js";
import { LEGACY_ROLE, TEST_CRD, TEST_NAMESPACE } from "../testing/test-strategy.js";
import { WriteCounter } from "../testing/write-counter.js";

const KUBEVIRT_KEY = `${TEST_NAMESPACE}/kubevirt`;
const RENDERED = [
  `CustomResourceDefinition ${TEST_CRD}`,
  `ServiceAccount ${TEST_NAMESPACE}/test-component`,
  "ClusterRole test-component",
  `ClusterRole ${LEGACY_ROLE}`,
  `Deployment ${TEST_NAMESPACE}/test-controller`,
  `DaemonSet ${TEST_NAMESPACE}/test-handler`,
];
/** The certificate step's Secrets: installed with every strategy, whatever it renders. */
const ISSUED = Object.values(CERTIFICATE_SECRETS).map((name) => `Secret ${TEST_NAMESPACE}/${name}`);
const INSTALLED = [...RENDERED, ...ISSUED].sort();

function condition(kubevirt: KubeVirt | undefined, type: string) {
  return kubevirt?.status?.conditions?.find((entry) => entry.type === type);
}

describe("virt-operator's KubeVirt reconciler: install, repair, update", () => {
  let cluster: OperatorTestCluster;
  let operator: RunningOperator;

  before(async () => {
    cluster = await startOperatorTestCluster();
    operator = await cluster.startOperator();
  });
  after(async () => {
    await cluster?.close();
  });

  const events = async (reason: string): Promise<CoreEvent[]> =>
    (await cluster.client.resource(eventKind).list({ namespace: TEST_NAMESPACE })).items.filter(
      (event) => event.reason === reason && event.involvedObject?.kind === "KubeVirt",
    );

  test("install: the finalizer first, every object applied, Deploying until the workloads are available, then Deployed", async () => {
    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: TEST_NAMESPACE },
      spec: {},
    });
    const deploying = await eventually("every object installed, the CR Deploying", async () => {
      const kubevirt = await cluster.kubevirt();
      const installed = [...(await cluster.managedObjects()).keys()].sort();
      return kubevirt?.status?.phase === "Deploying" && installed.length === INSTALLED.length
        ? kubevirt
        : undefined;
    });
    assert.deepEqual([...(await cluster.managedObjects()).keys()].sort(), INSTALLED);
    assert.deepEqual(deploying.metadata?.finalizers, [OPERATOR_FINALIZER]);
    assert.equal(condition(deploying, "Available")?.status, "False");
    assert.equal(condition(deploying, "Progressing")?.status, "True");
    assert.equal(deploying.status?.targetKubeVirtVersion, "v1");
    assert.equal(deploying.status?.observedDeploymentID, undefined);

    const deployment = await cluster.client
      .resource(deploymentKind)
      .get({ namespace: TEST_NAMESPACE, name: "test-controller" });
    assert.equal(
      deployment.metadata?.annotations?.[IDENTIFIER_ANNOTATION],
      deploying.status?.targetDeploymentID,
    );
    const managers = (deployment.metadata?.managedFields ?? []) as { manager?: string; operation?: string }[];
    assert.ok(
      managers.some((entry) => entry.manager === "virt-operator" && entry.operation === "Apply"),
      `applied server-side by virt-operator: ${JSON.stringify(managers)}`,
    );

    await cluster.markWorkloadsAvailable();
    const deployed = await eventually("the CR Deployed and Available", async () => {
      const kubevirt = await cluster.kubevirt();
      return kubevirt?.status?.phase === "Deployed" ? kubevirt : undefined;
    });
    assert.equal(condition(deployed, "Available")?.status, "True");
    assert.equal(condition(deployed, "Progressing")?.status, "False");
    assert.equal(condition(deployed, "Degraded")?.status, "False");
    assert.equal(deployed.status?.observedDeploymentID, deployed.status?.targetDeploymentID);
    assert.deepEqual(
      [
        deployed.status?.operatorVersion,
        deployed.status?.observedKubeVirtVersion,
        deployed.status?.observedKubeVirtRegistry,
      ],
      ["v1", "v1", "registry.test/kubevirt-ts"],
    );
    assert.equal(deployed.status?.observedGeneration, deployed.metadata?.generation);
    await eventually("a Deployed event", async () =>
      (await events("Deployed")).length === 1 ? true : undefined,
    );
    assert.ok((await events("SuccessfulCreate")).length >= RENDERED.length - 1);
    assert.equal((await events("CertificateIssued")).length, ISSUED.length);
  });

  test("a steady state writes nothing: no resourceVersion changes over several reconciles", async () => {
    const before = await cluster.managedObjects();
    const kubevirtVersion = (await cluster.kubevirt())?.metadata?.resourceVersion;
    const counter = new WriteCounter("virt-operator");
    try {
      for (let round = 0; round < 3; round++) {
        const since = await operator.reconciles();
        operator.controller.enqueue(KUBEVIRT_KEY);
        await reconciledAfter(operator, since);
      }
      assert.deepEqual(counter.writes, [], "no request but reads");
    } finally {
      counter.stop();
    }
    assert.deepEqual(await cluster.managedObjects(), before);
    assert.equal((await cluster.kubevirt())?.metadata?.resourceVersion, kubevirtVersion);
  });

  test("a deleted DaemonSet is restored: Degraded until it is available again", async () => {
    const daemonSets = cluster.client.resource(daemonSetKind);
    const before = await daemonSets.get({ namespace: TEST_NAMESPACE, name: "test-handler" });
    await daemonSets.delete({ namespace: TEST_NAMESPACE, name: "test-handler" });
    const degraded = await eventually("a new DaemonSet, the CR Degraded", async () => {
      const restored = await daemonSets
        .get({ namespace: TEST_NAMESPACE, name: "test-handler" })
        .catch(() => undefined);
      const kubevirt = await cluster.kubevirt();
      return restored &&
        restored.metadata?.uid !== before.metadata?.uid &&
        condition(kubevirt, "Degraded")?.status === "True"
        ? kubevirt
        : undefined;
    });
    assert.equal(degraded.status?.phase, "Deployed", "a repair is not a new deployment");
    assert.match(condition(degraded, "Degraded")?.message ?? "", /DaemonSet kubevirt\/test-handler/);
    await cluster.markWorkloadsAvailable();
    await eventually("Available again", async () =>
      condition(await cluster.kubevirt(), "Available")?.status === "True" ? true : undefined,
    );
  });

  test("a DaemonSet held while it is deleted counts as missing, is not written to, and is created anew once gone", async () => {
    const daemonSets = cluster.client.resource(daemonSetKind);
    const ref = { namespace: TEST_NAMESPACE, name: "test-handler" };
    await daemonSets.mergePatch(ref, { metadata: { finalizers: ["test.kubevirt.io/hold"] } });
    await daemonSets.delete(ref);
    const held = await daemonSets.get(ref);
    assert.ok(held.metadata?.deletionTimestamp, "the finalizer holds the DaemonSet while it is deleted");
    const degraded = await eventually("the CR Degraded, naming the DaemonSet being deleted", async () => {
      const kubevirt = await cluster.kubevirt();
      return condition(kubevirt, "Degraded")?.status === "True" ? kubevirt : undefined;
    });
    assert.match(condition(degraded, "Degraded")?.message ?? "", /DaemonSet kubevirt\/test-handler/);
    // Wake the reconciler once more with the DaemonSet still held.
    const since = await operator.reconciles();
    await cluster.client
      .resource(kubeVirtKind)
      .mergePatch(
        { namespace: TEST_NAMESPACE, name: "kubevirt" },
        { metadata: { annotations: { "test.kubevirt.io/nudge": "1" } } },
      );
    await reconciledAfter(operator, since);
    assert.equal(
      (await daemonSets.get(ref)).metadata?.resourceVersion,
      held.metadata?.resourceVersion,
      "nothing is applied to an object on its way out",
    );
    await daemonSets.mergePatch(ref, { metadata: { finalizers: null } });
    await eventually("a new DaemonSet", async () => {
      const restored = await daemonSets.get(ref).catch(() => undefined);
      return restored && restored.metadata?.uid !== held.metadata?.uid ? restored : undefined;
    });
    await cluster.markWorkloadsAvailable();
    await eventually("Available again", async () =>
      condition(await cluster.kubevirt(), "Available")?.status === "True" ? true : undefined,
    );
  });

  test("a Deployment scaled by hand and a ClusterRole edited by hand (kubectl) are restored", async () => {
    const scaled = await cluster.api.kubectl([
      "-n",
      TEST_NAMESPACE,
      "scale",
      "deployment/test-controller",
      "--replicas=5",
    ]);
    assert.equal(scaled.code, 0, scaled.stderr);
    const edited = await cluster.api.kubectl([
      "patch",
      "clusterrole",
      "test-component",
      "--type=json",
      "-p",
      JSON.stringify([{ op: "replace", path: "/rules/0/verbs", value: ["*"] }]),
    ]);
    assert.equal(edited.code, 0, edited.stderr);
    await eventually("replicas and rules as rendered", async () => {
      const deployment = await cluster.client
        .resource(deploymentKind)
        .get({ namespace: TEST_NAMESPACE, name: "test-controller" });
      const role = await cluster.api.kubectl([
        "get",
        "clusterrole",
        "test-component",
        "-o",
        "jsonpath={.rules[0].verbs}",
      ]);
      return deployment.spec?.replicas === 2 && role.stdout === '["get","list","watch"]' ? true : undefined;
    });
    await eventually("Restored events", async () =>
      (await events("Restored")).length >= 2 ? true : undefined,
    );
    await cluster.markWorkloadsAvailable();
    await eventually("Available again", async () =>
      condition(await cluster.kubevirt(), "Available")?.status === "True" ? true : undefined,
    );
  });

  test("a new imageTag re-renders: every object updated, the one no longer rendered deleted, Progressing until available", async () => {
    const firstId = (await cluster.kubevirt())?.status?.targetDeploymentID;
    await cluster.client
      .resource(kubeVirtKind)
      .mergePatch({ namespace: TEST_NAMESPACE, name: "kubevirt" }, { spec: { imageTag: "v2" } });
    const rolling = await eventually("the update applied", async () => {
      const kubevirt = await cluster.kubevirt();
      const installed = await cluster.managedObjects();
      return kubevirt?.status?.targetKubeVirtVersion === "v2" && !installed.has(`ClusterRole ${LEGACY_ROLE}`)
        ? kubevirt
        : undefined;
    });
    assert.notEqual(rolling.status?.targetDeploymentID, firstId);
    assert.equal(
      rolling.status?.observedKubeVirtVersion,
      "v1",
      "the old version is what is observed until the new one is up",
    );
    assert.equal(condition(rolling, "Progressing")?.status, "True");
    assert.equal(condition(rolling, "Degraded")?.status, "False");
    const deployment = await cluster.client
      .resource(deploymentKind)
      .get({ namespace: TEST_NAMESPACE, name: "test-controller" });
    assert.equal(
      deployment.spec?.template?.spec?.containers?.[0]?.image,
      "registry.test/kubevirt-ts/test-controller:v2",
    );
    const installed = [...(await cluster.managedObjects()).keys()].sort();
    assert.deepEqual(
      installed,
      INSTALLED.filter((name) => name !== `ClusterRole ${LEGACY_ROLE}`),
    );

    await cluster.markWorkloadsAvailable();
    const updated = await eventually("Deployed at v2", async () => {
      const kubevirt = await cluster.kubevirt();
      return kubevirt?.status?.observedKubeVirtVersion === "v2" && kubevirt.status.phase === "Deployed"
        ? kubevirt
        : undefined;
    });
    assert.equal(condition(updated, "Available")?.status, "True");
    assert.equal(updated.status?.observedDeploymentID, rolling.status?.targetDeploymentID);
    const crd = await cluster.api.kubectl([
      "get",
      "crd",
      TEST_CRD,
      "-o",
      "jsonpath={.metadata.annotations.kubevirt\\.io/install-strategy-version}",
    ]);
    assert.equal(crd.stdout, "v2");
  });

  test("a second KubeVirt is refused in its status, gets no finalizer, and deleting it removes nothing", async () => {
    const installedBefore = await cluster.managedObjects();
    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "second", namespace: TEST_NAMESPACE },
      spec: { imageTag: "v3" },
    });
    const refused = await eventually("the second CR refused", async () => {
      const second = await cluster.kubevirt("second");
      return condition(second, "Degraded")?.status === "True" ? second : undefined;
    });
    const degraded = condition(refused, "Degraded");
    assert.equal(degraded?.reason, "MultipleKubeVirtsExist");
    assert.match(degraded?.message ?? "", /KubeVirt kubevirt\/kubevirt is already active/);
    assert.equal(condition(refused, "Available")?.status, "False");
    assert.equal(refused.metadata?.finalizers, undefined);
    await cluster.client.resource(kubeVirtKind).delete({ namespace: TEST_NAMESPACE, name: "second" });
    await eventually("the second CR gone", async () =>
      (await cluster.kubevirt("second")) ? undefined : true,
    );
    const since = await operator.reconciles();
    operator.controller.enqueue(KUBEVIRT_KEY);
    await reconciledAfter(operator, since);
    assert.deepEqual(await cluster.managedObjects(), installedBefore);
    const first = await cluster.kubevirt();
    assert.equal(condition(first, "Available")?.status, "True");
    assert.equal(objectKey(first ?? {}), KUBEVIRT_KEY);
  });
});
