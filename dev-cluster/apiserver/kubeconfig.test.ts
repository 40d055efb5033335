import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { KubeConfig, VersionApi } from "@kubernetes/client-node";
import { writeKubeconfig } from "./kubeconfig.js";
import { ensureServingCertificates } from "./tls/certificates.js";

describe("writeKubeconfig", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "kubeconfig-test-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("writes a private kubeconfig that client-node reads", async () => {
    const path = join(dir, "nested", "dir", "config");
    const caCertPem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    await writeKubeconfig(path, { server: "https://127.0.0.1:6443", caCertPem, token: "secret-token" });
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    const config = new KubeConfig();
    config.loadFromFile(path);
    assert.equal(config.getCurrentContext(), "dev-cluster");
    assert.equal(config.getCurrentCluster()?.server, "https://127.0.0.1:6443");
    assert.equal(Buffer.from(config.getCurrentCluster()?.caData ?? "", "base64").toString(), caCertPem);
    assert.equal(config.getCurrentUser()?.token, "secret-token");
    assert.equal(config.getContextObject("dev-cluster")?.namespace, "default");
  });

  test("replaces an existing file without leaving temporary files", async () => {
    const path = join(dir, "replaced");
    const base = { server: "https://127.0.0.1:1", caCertPem: "ca", clusterName: "mine" };
    await writeKubeconfig(path, { ...base, token: "one" });
    await writeKubeconfig(path, { ...base, token: "two" });
    const config = new KubeConfig();
    config.loadFromFile(path);
    assert.equal(config.getCurrentUser()?.token, "two");
    assert.equal(config.getCurrentCluster()?.name, "mine");
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes("replaced")),
      ["replaced"],
    );
  });

  test("client-node trusts the dev CA and sends the token", async () => {
    const certificates = await ensureServingCertificates(join(dir, "data"), { hosts: [], ips: [] });
    const seen: (string | undefined)[] = [];
    const server = createServer({ cert: certificates.certPem, key: certificates.keyPem }, (req, res) => {
      seen.push(req.headers.authorization);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ major: "1", minor: "32", gitVersion: "v1.32.0" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const path = join(dir, "live");
      const serverUrl = `https://127.0.0.1:${port}`;
      await writeKubeconfig(path, { server: serverUrl, caCertPem: certificates.caCertPem, token: "tok" });
      const config = new KubeConfig();
      config.loadFromFile(path);
      const version = await config.makeApiClient(VersionApi).getCode();
      assert.equal(version.minor, "32");
      assert.deepEqual(seen, ["Bearer tok"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
