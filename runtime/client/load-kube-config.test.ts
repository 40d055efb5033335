// loadKubeConfig: the --kubeconfig file wins; inside a pod, the service account is read under
// $KUBEVIRT_TS_ROOT (the dev cluster's container path prefix).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadKubeConfig } from "./load-kube-config.js";

const SERVICE_ACCOUNT = "var/run/secrets/kubernetes.io/serviceaccount";

describe("loadKubeConfig", () => {
  let root: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "load-kube-config-"));
    await mkdir(join(root, SERVICE_ACCOUNT), { recursive: true });
    await writeFile(join(root, SERVICE_ACCOUNT, "namespace"), "kubevirt");
    await writeFile(join(root, SERVICE_ACCOUNT, "token"), "a-token");
    await writeFile(
      join(root, "kubeconfig"),
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]",
        "users: [{name: u, user: {token: t}}]",
        "contexts: [{name: ctx, context: {cluster: c, user: u, namespace: ns}}]",
        "current-context: ctx",
      ].join("\n"),
    );
  });
  after(() => rm(root, { recursive: true, force: true }));

  test("reads the --kubeconfig file even inside a pod", () => {
    const config = loadKubeConfig(join(root, "kubeconfig"), { KUBERNETES_SERVICE_HOST: "10.0.0.1" });
    assert.equal(config.getCurrentContext(), "ctx");
    assert.equal(config.getCurrentCluster()?.server, "https://127.0.0.1:6443");
  });

  test("inside a pod, reads the service account under $KUBEVIRT_TS_ROOT", () => {
    const config = loadKubeConfig(undefined, { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBEVIRT_TS_ROOT: root });
    assert.equal(config.getCurrentCluster()?.caFile, join(root, SERVICE_ACCOUNT, "ca.crt"));
    assert.equal(config.getContextObject(config.getCurrentContext())?.namespace, "kubevirt");
  });
});
