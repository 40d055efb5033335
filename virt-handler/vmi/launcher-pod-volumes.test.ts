import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Frozen } from "../../runtime/index.js";
import { IndexedStore } from "../../runtime/informer/indexed-store.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import type { Pod, Vmi } from "../kinds.js";
import { CREATED_BY_INDEX, createdByIndexer } from "./launcher-pod.js";
import { KubeletPodVolumes } from "./launcher-pod-volumes.js";

const VMI_UID = "5d3c2b1a-0000-4000-8000-00000000a001";
const POD_UID = "7e6f5d4c-1111-4111-8111-00000000b002";
const PODS_DIR = "/var/lib/kubelet/pods";

const vmi = (activePods?: Record<string, string>): Frozen<Vmi> =>
  ({
    metadata: { name: "vm1", namespace: "tenant", uid: VMI_UID },
    spec: { domain: { devices: {} } },
    ...(activePods ? { status: { activePods } } : {}),
  }) as Frozen<Vmi>;

function launcherPod(options: {
  namespace?: string;
  uid?: string;
  secretName?: string;
  deleting?: boolean;
}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: `virt-launcher-vm1-${options.uid ?? POD_UID}`,
      namespace: options.namespace ?? "tenant",
      uid: options.uid ?? POD_UID,
      labels: { "kubevirt.io/created-by": VMI_UID },
      ...(options.deleting ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
    },
    spec: {
      containers: [{ name: "compute", image: "virt-launcher" }],
      volumes: [{ name: "ci-udata", secret: { secretName: options.secretName ?? "user-secret" } }],
    },
  };
}

/** The pod informer's cache (its real store and index) holding `pods`. */
function volumesOver(pods: Pod[]): KubeletPodVolumes {
  const store = new IndexedStore<Pod>({ [CREATED_BY_INDEX]: createdByIndexer });
  for (const pod of pods) store.set(`${pod.metadata?.namespace}/${pod.metadata?.name}`, pod as Frozen<Pod>);
  const cache = { byIndex: store.byIndex.bind(store), list: () => [...store.values()] };
  return new KubeletPodVolumes({ podsDir: PODS_DIR, pods: cache, claim: async () => undefined });
}

function throwsReason(action: () => unknown, reason: string, message: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof VmiConversionError, String(error));
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
    return true;
  });
}

describe("a launcher pod's volumes on the node", () => {
  test("the kubelet's secret volume directory of the VMI's launcher pod", () => {
    const volumes = volumesOver([launcherPod({})]).of(vmi());
    assert.equal(
      volumes.secretVolumeDir("ci-udata", "user-secret"),
      `${PODS_DIR}/${POD_UID}/volumes/kubernetes.io~secret/ci-udata`,
    );
  });

  test("a pod of another namespace labelled with the VMI's uid is not its launcher pod", () => {
    const decoy = launcherPod({ namespace: "attacker", uid: "00000000-2222-4222-8222-00000000c003" });
    throwsReason(
      () => volumesOver([decoy]).of(vmi()).secretVolumeDir("ci-udata", "user-secret"),
      "VolumePreparationFailed",
      /the launcher pod of the VMI is not among this node's pods yet/,
    );
  });

  test("a terminating pod is skipped; of several, the one the VMI's activePods names", () => {
    const other = "8f7e6d5c-3333-4333-8333-00000000d004";
    const pods = [launcherPod({ deleting: true, uid: other }), launcherPod({})];
    assert.match(volumesOver(pods).of(vmi()).secretVolumeDir("ci-udata", "user-secret"), new RegExp(POD_UID));
    const two = [launcherPod({ uid: other }), launcherPod({})];
    const chosen = volumesOver(two)
      .of(vmi({ [POD_UID]: "node-1" }))
      .secretVolumeDir("ci-udata", "user-secret");
    assert.match(chosen, new RegExp(POD_UID));
  });

  test("the pod must declare the volume as a secret volume of that Secret", () => {
    const volumes = volumesOver([launcherPod({ secretName: "another-secret" })]).of(vmi());
    throwsReason(
      () => volumes.secretVolumeDir("ci-udata", "user-secret"),
      "UnsupportedVolume",
      /has no volume ci-udata of secret "user-secret"/,
    );
    throwsReason(
      () => volumes.secretVolumeDir("ci-ndata", "another-secret"),
      "UnsupportedVolume",
      /has no volume ci-ndata/,
    );
  });

  test("path parts are checked: a DNS-label volume name, a UUID pod uid", () => {
    const volumes = volumesOver([launcherPod({})]).of(vmi());
    throwsReason(
      () => volumes.secretVolumeDir("../ci-udata", "user-secret"),
      "InvalidSpec",
      /not a pod volume name/,
    );
    const odd = launcherPod({ uid: "../../etc" });
    assert.throws(
      () => volumesOver([odd]).of(vmi()).secretVolumeDir("ci-udata", "user-secret"),
      /has uid "..\/..\/etc", which is not a UUID/,
    );
  });
});
