import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hostPathOf } from "./container-paths.js";

describe("hostPathOf", () => {
  const mounts = JSON.stringify({
    "/data": "/node/pv-1",
    "/data/inner": "/node/other",
    "/dev/termination-log": "/node/t",
  });

  test("the longest mount holding the path wins; paths below a mount keep their rest", () => {
    const env = { KUBEVIRT_TS_VOLUME_MOUNTS: mounts, KUBEVIRT_TS_ROOT: "/root-links" };
    assert.equal(hostPathOf("/data", env), "/node/pv-1");
    assert.equal(hostPathOf("/data/disk.img", env), "/node/pv-1/disk.img");
    assert.equal(hostPathOf("/data/inner/x", env), "/node/other/x");
    assert.equal(hostPathOf("/dev/termination-log", env), "/node/t");
    assert.equal(
      hostPathOf("/database", env),
      "/root-links/database",
      "a name that only starts like a mount",
    );
  });

  test("without the mount table the container root is used, without either the literal path", () => {
    assert.equal(hostPathOf("/source", { KUBEVIRT_TS_ROOT: "/root-links" }), "/root-links/source");
    assert.equal(hostPathOf("/source", {}), "/source");
    assert.equal(hostPathOf("/source", { KUBEVIRT_TS_VOLUME_MOUNTS: "not json" }), "/source");
  });
});
