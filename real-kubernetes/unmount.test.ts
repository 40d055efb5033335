import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { mountPointsBelow } from "./unmount.js";

const MOUNTINFO = [
  "46 27 254:0 /var/lib/kubelet /var/lib/kubelet rw,relatime shared:2 - ext4 /dev/vda rw",
  "90 46 0:61 / /var/lib/kubelet/pods/u1/volumes/kubernetes.io~secret/token rw - tmpfs tmpfs rw",
  "91 46 0:62 / /var/lib/kubelet/pods/u1/volumes/kubernetes.io~projected/kube\\040api rw - tmpfs tmpfs rw",
  "92 27 0:63 / /var/lib/kubelet-other rw - tmpfs tmpfs rw",
  "93 27 0:64 / /var/lib rw - tmpfs tmpfs rw",
].join("\n");

describe("the kubelet's leftover mounts", () => {
  test("its root's own bind mount and everything below, deepest first, escapes decoded", () => {
    assert.deepEqual(mountPointsBelow(MOUNTINFO, "/var/lib/kubelet/"), [
      "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~projected/kube api",
      "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~secret/token",
      "/var/lib/kubelet",
    ]);
  });
});
