import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { attachedClaimOf, attachedVolumeOf, isAttachmentPod, renderAttachmentPod } from "./attachment-pod.js";

const vmi = deepFreeze<VirtualMachineInstance>({
  metadata: {
    name: "vm1",
    namespace: "tenant",
    uid: "0b3c9e5e-0000-4000-8000-000000000001",
    labels: { app: "web" },
  },
  spec: { ...smallVmiSpec(), tolerations: [{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }] },
  status: { phase: "Running", nodeName: "node-a" },
});

describe("the hotplug attachment pod", () => {
  const pod = renderAttachmentPod(
    vmi,
    { volumeName: "hot", claimName: "hot-claim", readOnly: false, hotpluggable: true },
    { image: "registry.example/virt-launcher:v1", node: "node-a" },
  );

  test("hp-volume-, the VMI's namespace, KubeVirt's label and the volume's; not the VMI's labels; owned by the VMI", () => {
    assert.equal(pod.metadata?.generateName, "hp-volume-");
    assert.equal(pod.metadata?.namespace, "tenant");
    assert.deepEqual(pod.metadata?.labels, {
      "kubevirt.io": "hotplug-disk",
      "kubevirt.io/hotplug-volume": "hot",
    });
    assert.deepEqual(pod.metadata?.ownerReferences, [
      {
        apiVersion: "kubevirt.io/v1",
        kind: "VirtualMachineInstance",
        name: "vm1",
        uid: "0b3c9e5e-0000-4000-8000-000000000001",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.ok(isAttachmentPod(pod));
    assert.equal(attachedVolumeOf(pod), "hot");
    assert.equal(attachedClaimOf(pod, "hot"), "hot-claim");
  });

  test("pinned to the VMI's node by a required node affinity, for the scheduler (no spec.nodeName); the VMI's tolerations", () => {
    assert.equal(pod.spec?.nodeName, undefined);
    assert.deepEqual(pod.spec?.affinity, {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-a"] }] },
          ],
        },
      },
    });
    assert.deepEqual(
      pod.spec?.tolerations?.map((toleration) => toleration.key),
      ["dedicated"],
    );
  });

  test("a pod volume named after the VMI volume, of its claim, mounted by one waiting launcher-image container", () => {
    assert.deepEqual(pod.spec?.volumes, [{ name: "hot", persistentVolumeClaim: { claimName: "hot-claim" } }]);
    assert.equal(pod.spec?.containers.length, 1);
    const container = pod.spec?.containers[0];
    assert.equal(container?.image, "registry.example/virt-launcher:v1");
    assert.deepEqual(container?.command, ["sleep", "infinity"]);
    assert.deepEqual(container?.volumeMounts, [
      { name: "hot", mountPath: "/var/run/kubevirt-private/vmi-disks/hot" },
    ]);
    assert.deepEqual(container?.resources, {
      requests: { cpu: "10m", memory: "2M" },
      limits: { cpu: "100m", memory: "80M" },
    });
    assert.equal(container?.securityContext?.allowPrivilegeEscalation, false);
    assert.equal(pod.spec?.terminationGracePeriodSeconds, 0);
    assert.equal(pod.spec?.automountServiceAccountToken, false);
  });

  test("a read-only claim is mounted read-only", () => {
    const readOnly = renderAttachmentPod(
      vmi,
      { volumeName: "ro", claimName: "ro-claim", readOnly: true, hotpluggable: true },
      { image: "virt-launcher", node: "node-a" },
    );
    assert.deepEqual(readOnly.spec?.volumes?.[0]?.persistentVolumeClaim, {
      claimName: "ro-claim",
      readOnly: true,
    });
    assert.equal(readOnly.spec?.containers[0]?.volumeMounts?.[0]?.readOnly, true);
  });
});
