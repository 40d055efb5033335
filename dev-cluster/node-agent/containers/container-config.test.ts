import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CachedPod, Container } from "../kinds.js";
import { type ContainerContext, resolveContainerConfig, volumeVariableName } from "./container-config.js";
import { expandVariables } from "./env-expansion.js";
import { ContainerConfigError } from "./field-ref.js";

const pod = {
  metadata: { name: "web-1", namespace: "apps", uid: "uid-1", labels: { app: "web" } },
  spec: { nodeName: "node-a", serviceAccountName: "robot", containers: [] },
} as unknown as CachedPod;

function context(container: Container, overrides: Partial<ContainerContext> = {}): ContainerContext {
  return {
    pod,
    container,
    image: {
      key: "img",
      imageID: "id",
      program: { command: ["/entry"], args: ["--default"], env: { FROM_IMAGE: "1" } },
    },
    network: { mode: "netns", podIP: "10.244.0.5", hostIP: "10.244.0.1", netns: "ns" },
    apiEndpoint: { host: "10.244.0.1", port: 443 },
    serviceAccountDir: "/data/pods/uid-1/sa",
    volumePaths: new Map([["cache", "/data/pods/uid-1/volumes/kubernetes.io~empty-dir/cache"]]),
    defaultPath: "/usr/bin:/bin",
    podDir: "/data/pods/uid-1",
    rootDir: "/data/pods/uid-1/containers/c/root",
    agentEnv: { KUBEVIRT_TS_POD_UID: "uid-1" },
    sources: {
      configMap: async (_namespace, name) =>
        (name === "settings" ? { data: { level: "debug" } } : undefined) as never,
      secret: async () => undefined,
      persistentVolumeClaim: async () => undefined,
      persistentVolume: async () => undefined,
      node: async () => undefined,
    },
    ...overrides,
  };
}

describe("container configuration", () => {
  test("command replaces the entrypoint and drops the image's args; args alone replace the args", async () => {
    assert.deepEqual((await resolveContainerConfig(context({ name: "c" }))).command, ["/entry", "--default"]);
    assert.deepEqual((await resolveContainerConfig(context({ name: "c", args: ["--x"] }))).command, [
      "/entry",
      "--x",
    ]);
    assert.deepEqual((await resolveContainerConfig(context({ name: "c", command: ["/other"] }))).command, [
      "/other",
    ]);
  });

  test("env holds the downward API, ConfigMap keys, $(VAR) expansion and the agent's variables", async () => {
    const config = await resolveContainerConfig(
      context({
        name: "c",
        args: ["--listen=$(POD_IP):8080", "$$(POD_IP)"],
        env: [
          { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
          { name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
          { name: "APP", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: "LEVEL", valueFrom: { configMapKeyRef: { name: "settings", key: "level" } } },
          { name: "URL", value: "http://$(POD_IP):$(MISSING)" },
        ],
        volumeMounts: [{ name: "cache", mountPath: "/var/cache/app", subPath: "sub" }],
      }),
    );
    assert.deepEqual(config.command, ["/entry", "--listen=10.244.0.5:8080", "$(POD_IP)"]);
    assert.equal(config.env.POD_IP, "10.244.0.5");
    assert.equal(config.env.NODE, "node-a");
    assert.equal(config.env.APP, "web");
    assert.equal(config.env.LEVEL, "debug");
    assert.equal(config.env.URL, "http://10.244.0.5:$(MISSING)");
    assert.equal(config.env.FROM_IMAGE, "1");
    assert.equal(config.env.KUBERNETES_SERVICE_HOST, "10.244.0.1");
    assert.equal(config.env.KUBERNETES_SERVICE_PORT, "443");
    assert.equal(config.env.KUBERNETES_SERVICE_ACCOUNT_DIR, "/data/pods/uid-1/sa");
    assert.equal(
      config.env[volumeVariableName("cache")],
      "/data/pods/uid-1/volumes/kubernetes.io~empty-dir/cache",
    );
    const mounts = {
      "/var/run/secrets/kubernetes.io/serviceaccount": "/data/pods/uid-1/sa",
      "/var/cache/app": "/data/pods/uid-1/volumes/kubernetes.io~empty-dir/cache/sub",
    };
    assert.deepEqual(JSON.parse(config.env.KUBEVIRT_TS_VOLUME_MOUNTS ?? "{}"), mounts);
    assert.deepEqual(config.mounts, mounts);
    assert.equal(config.env.KUBEVIRT_TS_ROOT, "/data/pods/uid-1/containers/c/root");
    assert.equal(config.env.KUBEVIRT_TS_POD_UID, "uid-1");
    assert.equal(config.cwd, "/data/pods/uid-1");
  });

  test("a missing ConfigMap is a CreateContainerConfigError unless optional", async () => {
    const missing = (optional: boolean): Container => ({
      name: "c",
      env: [{ name: "X", valueFrom: { configMapKeyRef: { name: "absent", key: "k", optional } } }],
    });
    await assert.rejects(resolveContainerConfig(context(missing(false))), ContainerConfigError);
    assert.equal((await resolveContainerConfig(context(missing(true)))).env.X, undefined);
  });

  test("$(VAR) expansion follows Kubernetes' rules", () => {
    const lookup = (name: string): string | undefined => ({ A: "a" })[name];
    assert.equal(expandVariables("$(A)-$(B)-$$(A)-$$-$x-$", lookup), "a-$(B)-$(A)-$-$x-$");
    assert.equal(expandVariables("$(A", lookup), "$(A");
  });
});
