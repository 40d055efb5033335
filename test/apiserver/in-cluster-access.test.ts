import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

/** GET /version over TLS, checking the certificate against `servername` instead of the address dialled. */
function versionAs(cluster: TestApiServer, servername: string): Promise<number> {
  const url = new URL(cluster.server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: "/version", servername, ca: cluster.server.caCertPem },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("what in-cluster clients use: the kubernetes Service and the serving certificate", () => {
  let cluster: TestApiServer;
  const certificate = async () =>
    new X509Certificate(await readFile(join(cluster.dataDir, "pki", "apiserver.crt")));

  before(async () => {
    cluster = await startTestApiServer({
      inMemory: false,
      servingIps: ["10.0.0.5"],
      servingHosts: ["api.dev.example"],
      advertiseAddress: "10.0.0.5",
    });
  });
  after(async () => cluster?.close());

  test("default/kubernetes is a Service on 10.96.0.1:443 whose Endpoints and EndpointSlice hold the API server", async () => {
    const port = cluster.server.port;
    const service = await cluster.kubectl(["get", "service", "kubernetes", "-o", "json"]);
    assert.equal(service.code, 0, service.stderr);
    const { spec, metadata } = JSON.parse(service.stdout);
    assert.deepEqual(metadata.labels, { component: "apiserver", provider: "kubernetes" });
    assert.equal(spec.clusterIP, "10.96.0.1");
    assert.deepEqual(spec.ports, [{ name: "https", port: 443, protocol: "TCP", targetPort: port }]);
    const endpoints = await cluster.kubectl(["get", "endpoints", "kubernetes", "-o", "jsonpath={.subsets}"]);
    assert.deepEqual(JSON.parse(endpoints.stdout), [
      { addresses: [{ ip: "10.0.0.5" }], ports: [{ name: "https", port, protocol: "TCP" }] },
    ]);
    const slice = await cluster.kubectl(["get", "endpointslice", "kubernetes", "-o", "json"]);
    const { addressType, endpoints: sliceEndpoints, ports } = JSON.parse(slice.stdout);
    assert.equal(addressType, "IPv4");
    assert.deepEqual(sliceEndpoints[0].addresses, ["10.0.0.5"]);
    assert.equal(ports[0].port, port);
  });

  test("the serving certificate covers the extra addresses and names, and the kubernetes Service's", async () => {
    const cert = await certificate();
    for (const ip of ["10.0.0.5", "10.96.0.1", "127.0.0.1"]) assert.equal(cert.checkIP(ip), ip, ip);
    for (const host of [
      "api.dev.example",
      "kubernetes.default.svc",
      "kubernetes.default.svc.cluster.local",
    ]) {
      assert.equal(cert.checkHost(host, { subject: "never" }), host, host);
    }
    assert.equal(await versionAs(cluster, "kubernetes.default.svc"), 200);
  });

  test("a restart with another address re-issues the certificate and moves the endpoints", async () => {
    await cluster.stop();
    await cluster.restart({ servingIps: ["10.0.0.6"], advertiseAddress: "10.0.0.6" });
    assert.equal((await certificate()).checkIP("10.0.0.6"), "10.0.0.6");
    const endpoints = await cluster.kubectl([
      "get",
      "endpoints",
      "kubernetes",
      "-o",
      "jsonpath={.subsets[0].addresses[0].ip}",
    ]);
    assert.equal(endpoints.stdout, "10.0.0.6");
  });
});
