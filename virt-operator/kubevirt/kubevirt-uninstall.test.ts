/**
 * The KubeVirt reconciler against the dev API server: an operator stopped in the middle of an
 * install and started again, then the two uninstall strategies. The tests run in order on one
 * cluster and build on each other.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type CoreEvent, eventKind, isNotFound } from "../../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { type KubeVirt, kubeVirtKind, type VirtualMachine, vmiKind, vmKind } from "../kinds.js";
import { OPERATOR_FINALIZER, type RenderStrategy } from "../strategy/install-strategy.js";
import {
  namespaceKind,
  type OperatorTestCluster,
  type RunningOperator,
  startOperatorTestCluster,
} from "../testing/operator-test-cluster.js";
import { renderTestStrategy, TEST_CRD, TEST_NAMESPACE } from "../testing/test-strategy.js";

const WORKLOAD_NAMESPACE = "vms";
const INSTALLED = [
  "ClusterRole test-component",
  "ClusterRole test-legacy",
  `CustomResourceDefinition ${TEST_CRD}`,
  `DaemonSet ${TEST_NAMESPACE}/test-handler`,
  `Deployment ${TEST_NAMESPACE}/test-controller`,
  ...Object.values(CERTIFICATE_SECRETS).map((name) => `Secret ${TEST_NAMESPACE}/${name}`),
  `ServiceAccount ${TEST_NAMESPACE}/test-component`,
].sort();
const HOLD_FINALIZER = "test.kubevirt-ts.io/hold";

function condition(kubevirt: KubeVirt | undefined, type: string) {
  return kubevirt?.status?.conditions?.find((entry) => entry.type === type);
}

function vm(name: string): VirtualMachine {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: { name, namespace: WORKLOAD_NAMESPACE },
    spec: {
      runStrategy: "Halted",
      template: { spec: { domain: { devices: {}, memory: { guest: "64Mi" } } } },
    },
  } as VirtualMachine;
}

describe("virt-operator's KubeVirt reconciler: restart mid-install, uninstall", () => {
  let cluster: OperatorTestCluster;

  before(async () => {
    cluster = await startOperatorTestCluster();
  });
  after(async () => {
    await cluster?.close();
  });

  const eventsOf = async (): Promise<CoreEvent[]> =>
    (await cluster.client.resource(eventKind).list({ namespace: TEST_NAMESPACE })).items
      .filter((event) => event.involvedObject?.kind === "KubeVirt")
      // Event names end in a hex timestamp with a sequence: their order is the order recorded.
      .sort((left, right) => eventOrder(left) - eventOrder(right));

  test("an operator stopped in the middle of an install: the next one converges, nothing duplicated", async (t) => {
    let renders = 0;
    let first: RunningOperator | undefined;
    let stopped: Promise<unknown> | undefined;
    // The second render happens once the CRD is Established, as the rest is about to be
    // applied: the operator is stopped right there, its client closed under the reconcile.
    const stopOnSecondRender: RenderStrategy = (identity, kubevirt, trust) => {
      if (++renders === 2) stopped = first?.stop();
      return renderTestStrategy(identity, kubevirt, trust);
    };
    first = await cluster.startOperator({ renderStrategy: stopOnSecondRender, gracefulShutdownMs: 1 });
    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: TEST_NAMESPACE },
      spec: {},
    });
    await eventually("the first operator stopping in its second reconcile", () => stopped);
    await stopped;
    const partial = await cluster.managedObjects();
    t.diagnostic(`stopped with ${partial.size} of ${INSTALLED.length} objects installed`);
    assert.ok(partial.has(`CustomResourceDefinition ${TEST_CRD}`), "stopped after the CRD was applied");
    assert.deepEqual((await cluster.kubevirt())?.metadata?.finalizers, [OPERATOR_FINALIZER]);

    await cluster.startOperator();
    await eventually("every object installed", async () =>
      (await cluster.managedObjects()).size === INSTALLED.length ? true : undefined,
    );
    await cluster.markWorkloadsAvailable();
    const deployed = await eventually("Deployed", async () => {
      const kubevirt = await cluster.kubevirt();
      return kubevirt?.status?.phase === "Deployed" ? kubevirt : undefined;
    });
    assert.deepEqual(deployed.metadata?.finalizers, [OPERATOR_FINALIZER], "one finalizer, once");
    assert.deepEqual([...(await cluster.managedObjects()).keys()].sort(), INSTALLED);
  });

  test("deleting the CR while VMs and VMIs exist is blocked: the reason in its status, nothing removed", async () => {
    await cluster.client.resource(namespaceKind).create({ metadata: { name: WORKLOAD_NAMESPACE } });
    await cluster.client.resource(vmKind).create(vm("first"));
    await cluster.client.resource(vmKind).create(vm("second"));
    // A VMI whose component finalizer is still on: the uninstall must wait for it to go.
    await cluster.client.resource(vmiKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "standalone", namespace: WORKLOAD_NAMESPACE, finalizers: [HOLD_FINALIZER] },
      spec: { domain: { devices: {}, memory: { guest: "64Mi" } } },
    } as never);
    const installed = await cluster.managedObjects();
    await cluster.client.resource(kubeVirtKind).delete({ namespace: TEST_NAMESPACE, name: "kubevirt" });
    const blocked = await eventually("the uninstall blocked", async () => {
      const kubevirt = await cluster.kubevirt();
      return kubevirt?.status?.phase === "Deleting" &&
        condition(kubevirt, "Degraded")?.reason === "DeletionBlocked"
        ? kubevirt
        : undefined;
    });
    assert.equal(
      condition(blocked, "Degraded")?.message,
      "cannot uninstall: 2 VirtualMachines and 1 VirtualMachineInstances exist; delete them or set spec.uninstallStrategy to RemoveWorkloads",
    );
    assert.ok(
      (await eventsOf()).some((event) => event.reason === "DeletionBlocked" && event.type === "Warning"),
    );

    // A VM going away is seen (VMs are watched), and still nothing is removed.
    await cluster.client.resource(vmKind).delete({ namespace: WORKLOAD_NAMESPACE, name: "second" });
    await eventually("the blocked message updated", async () =>
      /1 VirtualMachines and 1 VirtualMachineInstances/.test(
        condition(await cluster.kubevirt(), "Degraded")?.message ?? "",
      )
        ? true
        : undefined,
    );
    assert.deepEqual(await cluster.managedObjects(), installed, "nothing was removed or written");
    assert.deepEqual((await cluster.kubevirt())?.metadata?.finalizers, [OPERATOR_FINALIZER]);
  });

  test("with RemoveWorkloads: VMs and VMIs deleted and waited for, then every managed object (CRDs last), then the CR", async () => {
    await cluster.client
      .resource(kubeVirtKind)
      .mergePatch(
        { namespace: TEST_NAMESPACE, name: "kubevirt" },
        { spec: { uninstallStrategy: "RemoveWorkloads" } },
      );
    const waiting = await eventually("the VM gone, the held VMI deleting", async () => {
      const vms = await cluster.client.resource(vmKind).list({ namespace: WORKLOAD_NAMESPACE });
      const vmi = await cluster.client
        .resource(vmiKind)
        .get({ namespace: WORKLOAD_NAMESPACE, name: "standalone" });
      const kubevirt = await cluster.kubevirt();
      return vms.items.length === 0 &&
        vmi.metadata?.deletionTimestamp &&
        /waiting for 0 VirtualMachines and 1/.test(condition(kubevirt, "Progressing")?.message ?? "")
        ? kubevirt
        : undefined;
    });
    assert.equal(waiting.status?.phase, "Deleting");
    assert.equal(
      (await cluster.managedObjects()).size,
      INSTALLED.length,
      "components and certificates stay while workloads are being removed",
    );

    await cluster.client
      .resource(vmiKind)
      .mergePatch({ namespace: WORKLOAD_NAMESPACE, name: "standalone" }, { metadata: { finalizers: null } });
    await eventually("the CR gone", async () => {
      try {
        await cluster.client.resource(kubeVirtKind).get({ namespace: TEST_NAMESPACE, name: "kubevirt" });
        return undefined;
      } catch (error) {
        if (isNotFound(error)) return true;
        throw error;
      }
    });
    assert.deepEqual(
      [...(await cluster.managedObjects()).keys()],
      [],
      "no object with the managed-by label is left",
    );
    const crds = await cluster.api.kubectl(["get", "crd", "-o", "name"]);
    assert.match(
      crds.stdout,
      /kubevirts\.kubevirt\.io/,
      "the kubevirt.io CRDs the operator did not install stay",
    );

    const events = await eventsOf();
    const deleted = events
      .filter((event) => event.reason === "SuccessfulDelete")
      .map((event) => event.message ?? "");
    const at = (kind: string) => deleted.findIndex((message) => message.startsWith(`Deleted ${kind} `));
    assert.ok(
      at("DaemonSet") >= 0 && at("Deployment") >= 0 && at("CustomResourceDefinition") >= 0,
      deleted.join("\n"),
    );
    assert.ok(
      at("CustomResourceDefinition") > Math.max(at("DaemonSet"), at("Deployment"), at("ClusterRole")),
      deleted.join("\n"),
    );
    assert.ok(
      at("Secret") >= 0 && at("Secret") > at("Deployment"),
      `the certificate Secrets removed, after the workloads that use them:\n${deleted.join("\n")}`,
    );
    assert.ok(
      events.some((event) => event.reason === "Deleted"),
      "an uninstall-complete event",
    );
  });
});

function eventOrder(event: CoreEvent): number {
  const suffix = event.metadata?.name?.split(".").pop() ?? "";
  return Number.parseInt(suffix, 16);
}
