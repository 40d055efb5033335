// Where virtctl's kubeconfig comes from and what it settles (context, namespace), as kubectl's
// loading rules say; files written to a temporary directory, no server needed.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CliError } from "../errors/cli-error.js";
import { chooseKubeConfigSource, type SourceInputs } from "./kubeconfig-source.js";
import { loadKubeConfig } from "./load-kubeconfig.js";

describe("chooseKubeConfigSource", () => {
  const inputs = (overrides: Partial<SourceInputs>, existing: string[] = []): SourceInputs => ({
    flag: undefined,
    context: undefined,
    env: {},
    home: "/home/u",
    exists: (path) => existing.includes(path),
    ...overrides,
  });

  test("--kubeconfig alone, even when KUBECONFIG and ~/.kube/config exist", () => {
    const source = chooseKubeConfigSource(
      inputs({ flag: "/flag", env: { KUBECONFIG: "/env" } }, ["/env", "/home/u/.kube/config"]),
    );
    assert.deepEqual(source, { kind: "files", paths: ["/flag"] });
  });

  test("the KUBECONFIG files that exist, in order; ~/.kube/config is then not read", () => {
    const env = { KUBECONFIG: ["/a", "/missing", "/b", "/a"].join(delimiter) };
    assert.deepEqual(chooseKubeConfigSource(inputs({ env }, ["/a", "/b", "/home/u/.kube/config"])), {
      kind: "files",
      paths: ["/a", "/b"],
    });
  });

  test("~/.kube/config, then the service account when KUBERNETES_SERVICE_HOST is set and no context asked", () => {
    assert.deepEqual(chooseKubeConfigSource(inputs({}, ["/home/u/.kube/config"])), {
      kind: "files",
      paths: ["/home/u/.kube/config"],
    });
    const inPod = { KUBERNETES_SERVICE_HOST: "10.96.0.1" };
    assert.deepEqual(chooseKubeConfigSource(inputs({ env: inPod })), { kind: "in-cluster" });
    assert.deepEqual(chooseKubeConfigSource(inputs({ env: inPod, context: "other" })), {
      kind: "none",
      tried: ["/home/u/.kube/config"],
    });
    assert.deepEqual(chooseKubeConfigSource(inputs({})), { kind: "none", tried: ["/home/u/.kube/config"] });
  });
});

describe("loadKubeConfig", () => {
  let directory = "";
  const file = (name: string) => join(directory, name);
  const kubeconfig = (prefix: string, current: string, namespace?: string) => `apiVersion: v1
kind: Config
current-context: ${current}
clusters:
  - name: shared
    cluster: {server: "https://${prefix}.example:6443"}
  - name: ${prefix}-cluster
    cluster: {server: "https://${prefix}-own.example:6443"}
users:
  - name: ${prefix}-user
    user: {token: ${prefix}-token}
contexts:
  - name: ${prefix}
    context: {cluster: shared, user: ${prefix}-user${namespace ? `, namespace: ${namespace}` : ""}}
  - name: ${prefix}-own
    context: {cluster: ${prefix}-cluster, user: ${prefix}-user}
`;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "virtctl-kubeconfig-"));
    await writeFile(file("first"), kubeconfig("first", "first", "team-a"));
    await writeFile(file("second"), kubeconfig("second", "second-own"));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test("merged KUBECONFIG files: the first file's current context and names win", () => {
    const loaded = loadKubeConfig(
      {},
      { KUBECONFIG: [file("first"), file("second")].join(delimiter), HOME: directory },
    );
    assert.equal(loaded.config.getCurrentContext(), "first");
    assert.equal(loaded.config.getCurrentCluster()?.server, "https://first.example:6443");
    assert.equal(loaded.namespace, "team-a");
    assert.match(loaded.origin, /\(context first\)$/);
    assert.ok(loaded.config.getContextObject("second-own"), "the second file's contexts are there too");
  });

  test("--context picks a context; -n beats the context's namespace; else default", () => {
    const env = { KUBECONFIG: [file("first"), file("second")].join(delimiter), HOME: directory };
    const picked = loadKubeConfig({ context: "second-own" }, env);
    assert.equal(picked.config.getCurrentCluster()?.server, "https://second-own.example:6443");
    assert.equal(picked.namespace, "default");
    assert.equal(loadKubeConfig({ namespace: "team-b" }, env).namespace, "team-b");
    assert.throws(
      () => loadKubeConfig({ context: "nope" }, env),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.match(error.message, /^context "nope" not found in kubeconfig /);
        return true;
      },
    );
  });

  test("nothing to read is a CliError that says what to do", () => {
    assert.throws(
      () => loadKubeConfig({}, { HOME: directory }),
      /no kubeconfig found \(looked for .*\.kube\/config\): pass --kubeconfig, set KUBECONFIG, or create ~\/\.kube\/config/,
    );
  });
});
