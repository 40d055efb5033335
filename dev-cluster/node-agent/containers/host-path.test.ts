import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { nodeHostPath } from "./host-path.js";

const root = "/srv/dev-cluster/node-agent";

describe("hostPath volumes on the agent's node", () => {
  test("paths under /var/lib/kubelet are the agent's own kubelet directory", () => {
    assert.equal(nodeHostPath("/var/lib/kubelet/pods", root), `${root}/pods`);
    assert.equal(nodeHostPath("/var/lib/kubelet/pods/", root), `${root}/pods/`);
    assert.equal(nodeHostPath("/var/lib/kubelet", root), root);
    assert.equal(nodeHostPath("/var/lib/kubelet/", root), root);
    assert.equal(nodeHostPath("/var/lib//kubelet/./pods", root), `${root}/pods`);
  });

  test("other paths are the host's, including look-alikes and paths that only pass through", () => {
    assert.equal(nodeHostPath("/var/run/libvirt", root), "/var/run/libvirt");
    assert.equal(nodeHostPath("/var/lib/kubelet-other", root), "/var/lib/kubelet-other");
    assert.equal(nodeHostPath("/var/lib/kubelet/../kubevirt-ts", root), "/var/lib/kubelet/../kubevirt-ts");
    assert.equal(nodeHostPath("/var/lib", root), "/var/lib");
  });
});
