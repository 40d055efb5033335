/**
 * The virt-operator command as a process against the dev API server: its identity from
 * VIRT_OPERATOR_IMAGE, leader election, the health server, the real install strategy, and a
 * graceful stop.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { leaseKind } from "../runtime/index.js";
import { materialOf, secretKind } from "../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { eventually } from "../test/harness/api-server-fixture.js";
import { freePort } from "../test/harness/free-port.js";
import { httpsGet } from "../test/harness/https-get.js";
import { kubeVirtKind } from "./kinds.js";
import { OPERATOR_FINALIZER } from "./strategy/install-strategy.js";
import {
  daemonSetKind,
  deploymentKind,
  type OperatorTestCluster,
  startOperatorTestCluster,
} from "./testing/operator-test-cluster.js";
import { TEST_NAMESPACE } from "./testing/test-strategy.js";

const mainScript = fileURLToPath(new URL("./main.js", import.meta.url));

interface OperatorProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** What it wrote: its log (stdout) and errors (stderr). */
  output: () => string;
}

function startOperator(args: string[], env: NodeJS.ProcessEnv): OperatorProcess {
  const { VIRT_OPERATOR_IMAGE: _inherited, KUBERNETES_SERVICE_HOST: _inCluster, ...parentEnv } = process.env;
  const child = spawn(process.execPath, [mainScript, ...args], {
    env: { ...parentEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, exited, output: () => output };
}

describe("the virt-operator command", () => {
  let cluster: OperatorTestCluster;
  const running: OperatorProcess[] = [];

  before(async () => {
    cluster = await startOperatorTestCluster();
  });
  after(async () => {
    for (const { child } of running)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await cluster?.close();
  });

  test("without VIRT_OPERATOR_IMAGE it exits at once and says what to set", async () => {
    const operator = startOperator(["--kubeconfig", cluster.api.kubeconfigPath], {});
    running.push(operator);
    assert.equal(await operator.exited, 2);
    assert.match(operator.output(), /VIRT_OPERATOR_IMAGE is not set/);
  });

  test("a leader-elected process installs its own version, serves health, issues its own certificate and serves metrics with it, and stops on SIGTERM", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const operator = startOperator(
      [
        ...["--kubeconfig", cluster.api.kubeconfigPath, "--namespace", TEST_NAMESPACE],
        ...["--address", "127.0.0.1", "--health-port", String(port), "--metrics-port", String(metricsPort)],
        ...["--identity", "operator-a"],
        // A free lease is taken at once; generous renewals keep a busy CI machine from making the
        // only replica lose it (and exit, as a leader that lost its lease does).
        ...["--leader-elect-lease-duration", "4", "--leader-elect-renew-deadline", "3"],
        ...["--leader-elect-retry-period", "0.25", "--log-level", process.env.TEST_LOG_LEVEL ?? "warn"],
      ],
      { VIRT_OPERATOR_IMAGE: "registry.test/kubevirt-ts/virt-operator:v9.9.9" },
    );
    running.push(operator);
    // Before any KubeVirt CR there is no certificate: health and readiness do not wait for one.
    await eventually("ready", async () =>
      (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : undefined,
    );
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
    assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 404, "no metrics over HTTP");
    await eventually("the operator leading", async () => {
      const lease = await cluster.client
        .resource(leaseKind)
        .get({ namespace: TEST_NAMESPACE, name: "virt-operator" });
      return lease.spec?.holderIdentity === "operator-a" ? true : undefined;
    });

    await cluster.client.resource(kubeVirtKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: TEST_NAMESPACE },
      spec: {},
    });
    const deploying = await eventually("the install started at the image's version", async () => {
      const kubevirt = await cluster.kubevirt();
      return kubevirt?.status?.targetKubeVirtVersion === "v9.9.9" ? kubevirt : undefined;
    });
    assert.deepEqual(deploying.metadata?.finalizers, [OPERATOR_FINALIZER]);
    assert.equal(deploying.status?.targetKubeVirtRegistry, "registry.test/kubevirt-ts");
    assert.equal(deploying.status?.operatorVersion, "v9.9.9");
    await eventually("virt-controller and virt-handler applied", async () => {
      await cluster.client
        .resource(deploymentKind)
        .get({ namespace: TEST_NAMESPACE, name: "virt-controller" });
      await cluster.client.resource(daemonSetKind).get({ namespace: TEST_NAMESPACE, name: "virt-handler" });
      return true;
    });

    // Its own certificate, issued with the others, serves https://POD:PORT/metrics. A scraper
    // dials the pod's IP: it verifies the chain against the CA bundle, not the name.
    const issued = materialOf(
      await cluster.client
        .resource(secretKind)
        .get({ namespace: TEST_NAMESPACE, name: CERTIFICATE_SECRETS.operatorServer }),
    );
    const scraped = await eventually("metrics over HTTPS", () =>
      httpsGet(`https://127.0.0.1:${metricsPort}/metrics`, { ca: issued.caPem, checkHostName: false }),
    );
    assert.equal(scraped.fingerprint256, new X509Certificate(issued.certPem).fingerprint256);
    assert.match(scraped.body, /leader_election_master_status\{name="virt-operator"\} 1/);

    operator.child.kill("SIGTERM");
    assert.equal(await operator.exited, 0, operator.output());
  });
});
