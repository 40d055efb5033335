// The Manager's /metrics over HTTPS against the dev API server: health before the certificate's
// Secret exists, metrics once it does and never over plain HTTP, a rotation served without a
// restart, and a metrics port that is taken at first.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { Counter, Registry } from "prom-client";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { freePort } from "../../test/harness/free-port.js";
import { httpsGet } from "../../test/harness/https-get.js";
import {
  issueLoopbackServingCertificate,
  writeServingSecret,
} from "../../test/harness/serving-certificate.js";
import { KubeClient } from "../client/kube-client.js";
import { Manager } from "./manager.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const NAMESPACE = "default";

/** The status of a plain-HTTP GET, or "refused" when the connection fails. */
async function plainHttpStatus(url: string): Promise<number | "refused"> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "refused";
  }
}

function scrapeCounter(registry: Registry): Counter {
  return new Counter({ name: "test_scrapes_total", help: "a metric of the test's", registers: [registry] });
}

describe("Manager: /metrics over HTTPS", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "metrics-test" });
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("healthy and ready before the Secret exists; metrics over HTTPS once it does, never over HTTP; a rotation is served without a restart", async () => {
    const secret = { namespace: NAMESPACE, name: "rotated-certs" };
    const registry = new Registry();
    scrapeCounter(registry).inc(3);
    const metricsPort = await freePort();
    const manager = new Manager({
      ...{ name: "metrics-test", kubeConfig: cluster.kubeConfig(), log, registry },
      health: { host: "127.0.0.1", port: 0 },
      metrics: { host: "127.0.0.1", port: metricsPort, secret },
    });
    await manager.start();
    try {
      const health = manager.healthUrl as string;
      assert.equal(await plainHttpStatus(`${health}/healthz`), 200);
      assert.equal(await plainHttpStatus(`${health}/readyz`), 200, "ready without a certificate");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(manager.metricsUrl, undefined, "no certificate, no metrics server");
      assert.equal(await plainHttpStatus(`http://127.0.0.1:${metricsPort}/metrics`), "refused");
      assert.equal(await plainHttpStatus(`${health}/metrics`), 404, "the health server has no /metrics");

      const first = await issueLoopbackServingCertificate("first-ca");
      await writeServingSecret(client, secret.namespace, secret.name, first);
      const url = await eventually("the metrics server listening", () => manager.metricsUrl);
      assert.equal(url, `https://127.0.0.1:${metricsPort}`);
      const scraped = await httpsGet(`${url}/metrics`, { ca: first.caPem });
      assert.equal(scraped.status, 200);
      assert.match(scraped.body, /^test_scrapes_total 3$/m);
      assert.equal(scraped.fingerprint256, new X509Certificate(first.certPem).fingerprint256);
      const plain = await plainHttpStatus(`http://127.0.0.1:${metricsPort}/metrics`);
      assert.ok(plain === "refused" || plain >= 400, `plain HTTP on the metrics port got ${plain}`);
      assert.equal((await httpsGet(`${url}/healthz`, { ca: first.caPem })).status, 404, "metrics only");

      const second = await issueLoopbackServingCertificate("second-ca");
      await writeServingSecret(client, secret.namespace, secret.name, second);
      const rotated = await eventually("the rotated certificate served", async () => {
        const result = await httpsGet(`${url}/metrics`, { ca: second.caPem }).catch(() => undefined);
        return result?.status === 200 ? result : undefined;
      });
      assert.equal(rotated.fingerprint256, new X509Certificate(second.certPem).fingerprint256);
      assert.equal(manager.metricsUrl, url, "the same server: no restart");
      await assert.rejects(
        httpsGet(`${url}/metrics`, { ca: first.caPem }),
        /self[- ]signed|unable to verify|certificate/i,
        "the old CA no longer verifies what is served",
      );
    } finally {
      await manager.stop();
    }
    assert.equal(await plainHttpStatus(`http://127.0.0.1:${metricsPort}/metrics`), "refused");
  });

  test("a metrics port taken at first: health goes on, metrics are served once the port is free", async () => {
    const secret = { namespace: NAMESPACE, name: "port-taken-certs" };
    const serving = await issueLoopbackServingCertificate();
    await writeServingSecret(client, secret.namespace, secret.name, serving);
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as { port: number }).port;
    const registry = new Registry();
    scrapeCounter(registry);
    const manager = new Manager({
      ...{ name: "port-test", kubeConfig: cluster.kubeConfig(), log, registry },
      health: { host: "127.0.0.1", port: 0 },
      metrics: { host: "127.0.0.1", port, secret },
    });
    await manager.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(manager.metricsUrl, undefined, "the port is taken");
      assert.equal(await plainHttpStatus(`${manager.healthUrl}/readyz`), 200);
      blocker.close();
      await once(blocker, "close");
      const url = await eventually("metrics served after a retry", () => manager.metricsUrl);
      const scraped = await httpsGet(`${url}/metrics`, { ca: serving.caPem });
      assert.match(scraped.body, /^test_scrapes_total 0$/m);
    } finally {
      blocker.close();
      await manager.stop();
    }
  });
});
