import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import {
  deepFreeze,
  Expectations,
  type Frozen,
  OwnWrites,
  type ReconcileRequest,
  systemClock,
} from "../../runtime/index.js";
import { quietLog } from "../../test/harness/api-server-fixture.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { ReplicaSetReconciler } from "./replica-set-reconciler.js";
import { vmiIndexers } from "./vmi-indexes.js";

type ReplicaSet = StoredVirtualMachineInstanceReplicaSet;
type Vmi = VirtualMachineInstance;

const KEY = "default/web";

function replicaSet(spec: Partial<ReplicaSet["spec"]> = {}, status?: ReplicaSet["status"]): ReplicaSet {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstanceReplicaSet",
    metadata: { name: "web", namespace: "default", uid: "rs-uid", resourceVersion: "1" },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: smallVmiSpec() },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

/**
 * The controller's view of the cluster, by hand: the cache shows only what a test puts in it, so
 * a test decides how far the cache lags behind the API (the fake client's record of writes).
 */
class FakeCluster {
  replicaSet: Frozen<ReplicaSet> | undefined;
  cachedVmis: Frozen<Vmi>[] = [];
  readonly created: Vmi[] = [];
  readonly deleted: string[] = [];
  readonly statuses: ReplicaSet["status"][] = [];
  readonly events: string[] = [];
  createFailure: Error | undefined;
  #counter = 0;

  readonly replicaSets = { get: () => this.replicaSet };
  readonly vmis = {
    byIndex: (name: string, value: string) =>
      this.cachedVmis.filter((vmi) =>
        (vmiIndexers[name as keyof typeof vmiIndexers]?.(vmi) ?? []).includes(value),
      ),
  };
  readonly replicaSetClient = {
    get: async () => {
      if (!this.replicaSet) throw new Error("no replica set");
      return this.replicaSet as ReplicaSet;
    },
    // The replica set's own cache keeps up (its status write shows at once); only the VMIs lag.
    updateStatus: async (object: ReplicaSet) => {
      this.statuses.push(object.status);
      const stored = {
        ...object,
        metadata: { ...object.metadata, resourceVersion: String(this.#counter++ + 100) },
      };
      this.replicaSet = deepFreeze(structuredClone(stored));
      return stored;
    },
  };
  readonly vmiClient = {
    create: async (vmi: Vmi) => {
      if (this.createFailure) throw this.createFailure;
      const made: Vmi = {
        ...vmi,
        metadata: {
          ...vmi.metadata,
          name: `${vmi.metadata?.generateName ?? ""}${this.#counter++}`,
          uid: `vmi-${this.#counter}`,
        },
      };
      this.created.push(made);
      return made;
    },
    delete: async (ref: { name: string }) => {
      this.deleted.push(ref.name);
      return undefined;
    },
    jsonPatch: async (): Promise<Vmi> => {
      throw new Error("no patches expected");
    },
  };
  readonly recorder = {
    normal: (_object: unknown, reason: string, message: string) => this.events.push(`${reason}: ${message}`),
    warning: (_object: unknown, reason: string, message: string) =>
      this.events.push(`Warning ${reason}: ${message}`),
  };

  /** The cache catches up with every create so far. */
  syncCache(): void {
    this.cachedVmis = this.created.map((vmi) => deepFreeze(structuredClone(vmi)));
  }
}

function reconcilerFor(cluster: FakeCluster, expectations = new Expectations(), burstReplicas = 250) {
  return new ReplicaSetReconciler({
    replicaSets: cluster.replicaSets,
    vmis: cluster.vmis,
    replicaSetClient: cluster.replicaSetClient,
    vmiClient: cluster.vmiClient,
    events: cluster.recorder,
    expectations,
    ownWrites: new OwnWrites(),
    clock: systemClock,
    burstReplicas,
  });
}

const request: ReconcileRequest = {
  key: KEY,
  namespace: "default",
  name: "web",
  log: quietLog,
  signal: new AbortController().signal,
};

describe("ReplicaSetReconciler, against a cache that lags behind", () => {
  test("creates the missing VMIs once: a second reconcile on the stale cache creates none", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet());
    const expectations = new Expectations();
    const reconciler = reconcilerFor(cluster, expectations);
    await reconciler.reconcile(request);
    assert.equal(cluster.created.length, 3);
    await reconciler.reconcile(request);
    assert.equal(cluster.created.length, 3, "the cache does not show them yet: nothing more");
    for (let i = 0; i < 3; i++) expectations.creationObserved(KEY);
    cluster.syncCache();
    await reconciler.reconcile(request);
    assert.equal(cluster.created.length, 3, "the cache shows 3: done");
    const vmi = cluster.created[0];
    assert.equal(vmi?.metadata?.generateName, "web", "KubeVirt's base name: the replica set's, as is");
    assert.deepEqual(vmi?.metadata?.labels, { app: "web" });
    assert.equal(vmi?.metadata?.ownerReferences?.[0]?.kind, "VirtualMachineInstanceReplicaSet");
    assert.equal(vmi?.metadata?.ownerReferences?.[0]?.controller, true);
    assert.match(cluster.events[0] ?? "", /^SuccessfulCreate: Started the virtual machine by creating/);
  });

  test("a new controller (a restart: no expectations) counts the cache it synced, and makes only the missing ones", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet({ replicas: 5 }));
    await reconcilerFor(cluster, new Expectations(), 2).reconcile(request);
    assert.equal(cluster.created.length, 2, "at most burstReplicas per reconcile");
    cluster.syncCache();
    await reconcilerFor(cluster).reconcile(request);
    assert.equal(cluster.created.length, 5);
    cluster.syncCache();
    await reconcilerFor(cluster).reconcile(request);
    assert.equal(cluster.created.length, 5, "exactly the requested number");
  });

  test("the status: replicas, readyReplicas, the selector's text form; ReplicaPaused while paused, and no scaling", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet({ paused: true }));
    await reconcilerFor(cluster).reconcile(request);
    assert.equal(cluster.created.length, 0);
    const status = cluster.statuses.at(-1);
    assert.equal(status?.replicas, 0);
    assert.equal(status?.readyReplicas, 0);
    assert.equal(status?.labelSelector, "app=web");
    const paused = status?.conditions?.find((condition) => condition.type === "ReplicaPaused");
    assert.equal(paused?.reason, "Paused");
    assert.equal(paused?.message, "Controller got paused");
    assert.ok(cluster.events.includes("SuccessfulPaused: Paused"));
  });

  test("a create that fails: ReplicaFailure FailedCreate with the error, a Warning, and a retry", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet({ replicas: 1 }));
    cluster.createFailure = new Error("admission webhook denied the request");
    const reconciler = reconcilerFor(cluster);
    await assert.rejects(reconciler.reconcile(request), /FailedCreate/);
    const failure = cluster.statuses.at(-1)?.conditions?.find((c) => c.type === "ReplicaFailure");
    assert.equal(failure?.reason, "FailedCreate");
    assert.equal(failure?.message, "admission webhook denied the request");
    assert.ok(cluster.events.some((event) => event.startsWith("Warning FailedCreate: Error creating")));
    cluster.createFailure = undefined;
    await reconciler.reconcile(request);
    assert.equal(cluster.created.length, 1, "the failed create is not waited for");
  });

  test("scale-down deletes the surplus in deletion order; finished VMIs are deleted once nothing is created", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet({ replicas: 1 }));
    const owned = (name: string, phase: string, ready: boolean): Frozen<Vmi> =>
      deepFreeze<Vmi>({
        apiVersion: "kubevirt.io/v1",
        kind: "VirtualMachineInstance",
        metadata: {
          name,
          namespace: "default",
          uid: `uid-${name}`,
          labels: { app: "web" },
          creationTimestamp: "2026-01-01T00:00:00Z",
          ownerReferences: [
            {
              apiVersion: "kubevirt.io/v1",
              kind: "VirtualMachineInstanceReplicaSet",
              name: "web",
              uid: "rs-uid",
              controller: true,
            },
          ],
        },
        spec: smallVmiSpec(),
        status: {
          phase: phase as "Running",
          conditions: ready ? [{ type: "Ready", status: "True" }] : [],
        },
      });
    cluster.cachedVmis = [
      owned("web-a", "Running", true),
      owned("web-b", "Scheduled", false),
      owned("web-c", "Running", true),
      owned("web-d", "Failed", false),
    ];
    await reconcilerFor(cluster).reconcile(request);
    assert.deepEqual(
      [...cluster.deleted].sort(),
      ["web-b", "web-c", "web-d"],
      "not yet running first, then the newest Ready (same second: the last name); the finished one",
    );
    assert.equal(cluster.statuses.at(-1)?.readyReplicas, 2);
    assert.equal(cluster.statuses.at(-1)?.replicas, 3);
    assert.ok(cluster.events.includes("SuccessfulDelete: Deleted finished virtual machine: uid-web-d"));
  });

  test("a selector that does not match the template's labels: nothing is made, a Warning says why", async () => {
    const cluster = new FakeCluster();
    cluster.replicaSet = deepFreeze(replicaSet({ selector: { matchLabels: { app: "other" } } }));
    await reconcilerFor(cluster).reconcile(request);
    assert.equal(cluster.created.length, 0);
    assert.equal(cluster.statuses.length, 0);
    assert.match(cluster.events[0] ?? "", /^Warning InvalidSelector: spec.selector does not match/);
  });
});
