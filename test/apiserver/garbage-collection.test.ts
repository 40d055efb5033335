import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually, startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

describe("owner-reference garbage collection", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  async function exists(name: string): Promise<boolean> {
    const result = await cluster.kubectl(["get", "configmap", name, "-o", "name"]);
    return result.code === 0;
  }

  /** An owner ConfigMap and a dependent that names it (blocking its owner's foreground deletion). */
  async function ownerWithDependent(prefix: string, dependentFinalizer?: string): Promise<void> {
    assert.equal((await cluster.kubectl(["create", "configmap", `${prefix}-owner`])).code, 0);
    const uid = (
      await cluster.kubectl(["get", "configmap", `${prefix}-owner`, "-o", "jsonpath={.metadata.uid}"])
    ).stdout;
    const dependent = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: `${prefix}-dependent`,
        ...(dependentFinalizer ? { finalizers: [dependentFinalizer] } : {}),
        ownerReferences: [
          { apiVersion: "v1", kind: "ConfigMap", name: `${prefix}-owner`, uid, blockOwnerDeletion: true },
        ],
      },
    };
    const created = await cluster.kubectl(["create", "-f", "-"], { input: JSON.stringify(dependent) });
    assert.equal(created.code, 0, created.stderr);
  }

  test("Background (kubectl's default): the owner goes at once, its dependents after", async () => {
    await ownerWithDependent("bg");
    const deleted = await cluster.kubectl(["delete", "configmap", "bg-owner"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(await exists("bg-owner"), false);
    await eventually("the dependent to be collected", async () =>
      (await exists("bg-dependent")) ? undefined : true,
    );
  });

  test("Foreground: the owner stays until its blocking dependents are gone", async () => {
    await ownerWithDependent("fg", "example.kubevirt.io/hold");
    const deleted = await cluster.kubectl([
      "delete",
      "configmap",
      "fg-owner",
      "--cascade=foreground",
      "--wait=false",
    ]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const owner = await cluster.kubectl([
      "get",
      "configmap",
      "fg-owner",
      "-o",
      "jsonpath={.metadata.finalizers}",
    ]);
    assert.match(owner.stdout, /foregroundDeletion/);
    await eventually("the dependent to be marked for deletion", async () => {
      const result = await cluster.kubectl([
        "get",
        "configmap",
        "fg-dependent",
        "-o",
        "jsonpath={.metadata.deletionTimestamp}",
      ]);
      return result.stdout !== "" ? true : undefined;
    });
    assert.equal(await exists("fg-owner"), true, "the dependent's finalizer still blocks the owner");
    await cluster.kubectl([
      "patch",
      "configmap",
      "fg-dependent",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    await eventually("the owner to go once its dependent has", async () =>
      (await exists("fg-owner")) ? undefined : true,
    );
    assert.equal(await exists("fg-dependent"), false);
  });

  test("Orphan: the owner goes and its dependents stay without the reference", async () => {
    await ownerWithDependent("or");
    const deleted = await cluster.kubectl(["delete", "configmap", "or-owner", "--cascade=orphan"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    await eventually("the owner to go", async () => ((await exists("or-owner")) ? undefined : true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refs = await cluster.kubectl([
      "get",
      "configmap",
      "or-dependent",
      "-o",
      "jsonpath={.metadata.ownerReferences}",
    ]);
    assert.equal(refs.code, 0, "the dependent is still there");
    assert.equal(refs.stdout, "");
  });

  test("a dependent with several owners stays while one of them is alive", async () => {
    await cluster.kubectl(["create", "configmap", "owner-a"]);
    await cluster.kubectl(["create", "configmap", "owner-b"]);
    const uid = async (name: string) =>
      (await cluster.kubectl(["get", "configmap", name, "-o", "jsonpath={.metadata.uid}"])).stdout;
    const dependent = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "shared-dependent",
        ownerReferences: [
          { apiVersion: "v1", kind: "ConfigMap", name: "owner-a", uid: await uid("owner-a") },
          { apiVersion: "v1", kind: "ConfigMap", name: "owner-b", uid: await uid("owner-b") },
        ],
      },
    };
    await cluster.kubectl(["create", "-f", "-"], { input: JSON.stringify(dependent) });
    await cluster.kubectl(["delete", "configmap", "owner-a"]);
    await eventually("the dangling reference to be dropped", async () => {
      const refs = await cluster.kubectl([
        "get",
        "configmap",
        "shared-dependent",
        "-o",
        "jsonpath={.metadata.ownerReferences[*].name}",
      ]);
      return refs.stdout === "owner-b" ? true : undefined;
    });
    await cluster.kubectl(["delete", "configmap", "owner-b"]);
    await eventually("the dependent to go with its last owner", async () =>
      (await exists("shared-dependent")) ? undefined : true,
    );
  });
});
