// The certificates kubeadm would give, checked with Node's X.509 parser and signature checks.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type ClusterPki, ensureClusterPki, kubeconfigYaml } from "./cluster-pki.js";

describe("the cluster's PKI", () => {
  let dir: string;
  let pki: ClusterPki;
  const cert = async (path: string) => new X509Certificate(await readFile(path));
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "real-kubernetes-pki-"));
    pki = await ensureClusterPki(join(dir, "pki"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("the API server's certificate names the node address, the kubernetes Service and its DNS names", async () => {
    const apiServer = await cert(pki.apiServer.cert);
    assert.ok(apiServer.verify((await cert(pki.caCert)).publicKey));
    assert.match(apiServer.subjectAltName ?? "", /IP Address:10\.249\.0\.1/);
    assert.match(apiServer.subjectAltName ?? "", /IP Address:10\.97\.0\.1/);
    assert.match(apiServer.subjectAltName ?? "", /DNS:kubernetes\.default\.svc\.cluster\.local/);
  });

  test("the kubelet is system:node:node01 in system:nodes (the Node authorizer's subject), kube-proxy system:kube-proxy", async () => {
    const kubelet = await cert(pki.clients.kubelet.cert);
    assert.match(kubelet.subject, /CN=system:node:node01/);
    assert.match(kubelet.subject, /O=system:nodes/);
    assert.match((await cert(pki.clients["kube-proxy"].cert)).subject, /CN=system:kube-proxy/);
    assert.ok(kubelet.verify((await cert(pki.caCert)).publicKey));
  });

  test("the front-proxy client is signed by its own CA, not the cluster's", async () => {
    const client = await cert(pki.frontProxyClient.cert);
    assert.ok(client.verify((await cert(pki.frontProxyCaCert)).publicKey));
    assert.ok(!client.verify((await cert(pki.caCert)).publicKey));
  });

  test("keys are private to root, and a second start reuses every file", async () => {
    assert.equal((await stat(pki.serviceAccountKey)).mode & 0o077, 0);
    const before = await readFile(pki.clients.admin.cert, "utf8");
    await ensureClusterPki(join(dir, "pki"));
    assert.equal(await readFile(pki.clients.admin.cert, "utf8"), before);
  });

  test("a kubeconfig carries its identity inline", async () => {
    const yaml = await kubeconfigYaml(pki, "admin", "https://10.249.0.1:6443");
    assert.match(yaml, /server: https:\/\/10\.249\.0\.1:6443/);
    const data = /client-certificate-data: (\S+)/.exec(yaml)?.[1] ?? "";
    assert.match(new X509Certificate(Buffer.from(data, "base64")).subject, /O=system:masters/);
  });
});
