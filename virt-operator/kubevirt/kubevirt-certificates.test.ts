/**
 * The reconciler's certificate step against the dev API server, with a clock the tests move
 * forward: certificates issued before anything is applied, the strategy rendered with their CA
 * bundle, the reconcile coming back by itself when a renewal is due, a deleted Secret issued again
 * at once, a CA rotation reaching the rendered strategy. The tests run in order on one cluster.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Counter } from "prom-client";
import { type CoreEvent, eventKind } from "../../runtime/index.js";
import { materialOf, type Secret, secretKind } from "../../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { renewalDueAt } from "../certificates/certificate-lifetimes.js";
import { isSignedBy, readBundle, readCertificate } from "../certificates/certificate-reader.js";
import { kubeVirtKind } from "../kinds.js";
import type { RenderStrategy } from "../strategy/install-strategy.js";
import {
  type OperatorTestCluster,
  type RunningOperator,
  reconciledAfter,
  startOperatorTestCluster,
} from "../testing/operator-test-cluster.js";
import { ShiftedClock } from "../testing/shifted-clock.js";
import { renderTestStrategy, TEST_NAMESPACE } from "../testing/test-strategy.js";
import { WriteCounter } from "../testing/write-counter.js";

const KUBEVIRT_KEY = `${TEST_NAMESPACE}/kubevirt`;
const LEAVES = [
  CERTIFICATE_SECRETS.apiServer,
  CERTIFICATE_SECRETS.handlerServer,
  CERTIFICATE_SECRETS.handlerClient,
  CERTIFICATE_SECRETS.controllerServer,
  CERTIFICATE_SECRETS.operatorServer,
];

describe("virt-operator's KubeVirt reconciler: certificates", () => {
  let cluster: OperatorTestCluster;
  let operator: RunningOperator;
  const clock = new ShiftedClock();
  /** The CA bundle of every rendering, in order. */
  const rendered: string[] = [];
  const recordingRender: RenderStrategy = (identity, kubevirt, trust) => {
    rendered.push(trust.caBundlePem);
    return renderTestStrategy(identity, kubevirt, trust);
  };

  before(async () => {
    cluster = await startOperatorTestCluster();
    operator = await cluster.startOperator({ renderStrategy: recordingRender, clock });
  });
  after(async () => {
    await cluster?.close();
  });

  const secret = (name: string): Promise<Secret> =>
    cluster.client.resource(secretKind).get({ namespace: TEST_NAMESPACE, name });
  const certificatePem = async (name: string): Promise<string> => materialOf(await secret(name)).certPem;

  test("install: the certificates first, then the strategy rendered with their CA bundle; the reconcile is due back", async () => {
    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: TEST_NAMESPACE },
      spec: {},
    });
    // The test strategy's six objects and the six certificate Secrets (the CA and LEAVES).
    await eventually("every object installed, the CR Deploying", async () =>
      (await cluster.kubevirt())?.status?.phase === "Deploying" &&
      (await cluster.managedObjects()).size === 6 + 1 + LEAVES.length
        ? true
        : undefined,
    );
    await cluster.markWorkloadsAvailable();
    await eventually("the CR Deployed", async () =>
      (await cluster.kubevirt())?.status?.phase === "Deployed" ? true : undefined,
    );
    const bundle = materialOf(await secret(CERTIFICATE_SECRETS.ca)).caPem;
    assert.ok(rendered.length > 0);
    assert.deepEqual(
      new Set(rendered),
      new Set([bundle]),
      "every rendering got the CA bundle of the Secrets",
    );

    const events = (await cluster.client.resource(eventKind).list({ namespace: TEST_NAMESPACE })).items
      .filter((event) => event.involvedObject?.kind === "KubeVirt")
      .sort((left, right) => eventOrder(left) - eventOrder(right));
    const issued = events.filter((event) => event.reason === "CertificateIssued");
    const firstCreate = events.findIndex((event) => event.reason === "SuccessfulCreate");
    assert.equal(issued.length, 1 + LEAVES.length, events.map((event) => event.message).join("\n"));
    assert.ok(firstCreate > events.indexOf(issued.at(-1) as CoreEvent), "issued before anything is applied");

    const metric = operator.manager.registry.getSingleMetric("controller_runtime_reconcile_total") as Counter;
    const requeued = (await metric.get()).values.find(
      (value) => value.labels.controller === "kubevirt" && value.labels.result === "requeue_after",
    );
    assert.ok((requeued?.value ?? 0) > 0, "an installed CR is looked at again later");
  });

  test("nothing else happening, the reconcile comes back when the certificates are due and renews them", async () => {
    const before = await Promise.all(LEAVES.map(certificatePem));
    const caBefore = await certificatePem(CERTIFICATE_SECRETS.ca);
    const due = renewalDueAt(readCertificate(before[0] ?? "").validity);
    clock.advanceTo(due - 3000);
    const counter = new WriteCounter("virt-operator");
    try {
      const since = await operator.reconciles();
      operator.controller.enqueue(KUBEVIRT_KEY);
      await reconciledAfter(operator, since);
      assert.deepEqual(counter.writes, [], "three seconds early: nothing to do yet");
    } finally {
      counter.stop();
    }
    await eventually(
      "every certificate renewed by the requeued reconcile",
      async () => {
        const now = await Promise.all(LEAVES.map(certificatePem));
        return now.every((pem, index) => pem !== before[index]) ? true : undefined;
      },
      30_000,
    );
    assert.equal(await certificatePem(CERTIFICATE_SECRETS.ca), caBefore, "the CA is not due");
  });

  test("a deleted certificate Secret is issued again at once (kubectl delete)", async () => {
    const before = await secret(CERTIFICATE_SECRETS.handlerServer);
    const deleted = await cluster.api.kubectl([
      "-n",
      TEST_NAMESPACE,
      "delete",
      "secret",
      CERTIFICATE_SECRETS.handlerServer,
    ]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const reissued = await eventually("the Secret issued again", async () => {
      const current = await secret(CERTIFICATE_SECRETS.handlerServer).catch(() => undefined);
      return current && current.metadata?.uid !== before.metadata?.uid ? current : undefined;
    });
    const material = materialOf(reissued);
    const ca = readCertificate(materialOf(await secret(CERTIFICATE_SECRETS.ca)).certPem);
    assert.ok(isSignedBy(readCertificate(material.certPem), ca));
  });

  test("a CA rotation reaches the rendered strategy: both CAs in its bundle, the new one first", async () => {
    const oldCa = readCertificate(await certificatePem(CERTIFICATE_SECRETS.ca));
    clock.advanceTo(renewalDueAt(oldCa.validity));
    const renders = rendered.length;
    operator.controller.enqueue(KUBEVIRT_KEY);
    const bundle = await eventually("a rendering with the rotated bundle", () =>
      rendered.slice(renders).find((pem) => readBundle(pem).length === 2),
    );
    const newCa = readCertificate(await certificatePem(CERTIFICATE_SECRETS.ca));
    assert.notEqual(newCa.pem, oldCa.pem);
    assert.deepEqual(
      readBundle(bundle).map((entry) => entry.pem),
      [newCa.pem, oldCa.pem],
    );
  });
});

/** Event names end in a hex timestamp with a sequence: their order is the order recorded. */
function eventOrder(event: CoreEvent): number {
  return Number.parseInt(event.metadata?.name?.split(".").pop() ?? "", 16);
}
