// The containerd configuration is read by containerd itself (`containerd config dump` merges it
// with the defaults and fails on a file it cannot load); the CNI list is checked for what the node
// relies on.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { cniConflist, containerdConfigToml, containerdPaths } from "./containerd.js";

const run = promisify(execFile);

describe("the node's containerd", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "real-kubernetes-containerd-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("containerd loads the configuration with what the node needs", async () => {
    const paths = containerdPaths(join(dir, "containerd"), join(dir, "cni"));
    await writeFile(join(dir, "config.toml"), containerdConfigToml(paths, "localhost/kubevirt-ts/pause:3.9"));
    const { stdout } = await run("containerd", ["--config", join(dir, "config.toml"), "config", "dump"]);
    assert.match(stdout, /sandbox_image = "localhost\/kubevirt-ts\/pause:3.9"/);
    assert.match(stdout, /restrict_oom_score_adj = true/);
    assert.match(stdout, /netns_mounts_under_state_dir = true/);
    assert.match(stdout, /SystemdCgroup = false/);
    assert.match(stdout, /config_path = "\/etc\/containerd\/certs.d"/);
    assert.match(stdout, new RegExp(`address = "${paths.socket}"`));
  });

  test("pods on the node's bridge get addresses without masquerade", () => {
    const paths = containerdPaths(join(dir, "containerd"), join(dir, "cni"));
    const conflist = JSON.parse(cniConflist(paths)) as {
      plugins: {
        type: string;
        bridge?: string;
        ipMasq?: boolean;
        ipam?: { ranges: { subnet: string }[][] };
      }[];
    };
    const bridge = conflist.plugins.find((plugin) => plugin.type === "bridge");
    assert.equal(bridge?.bridge, "kvts-cni0");
    assert.equal(bridge?.ipMasq, false);
    assert.deepEqual(bridge?.ipam?.ranges, [[{ subnet: "10.244.0.0/24" }]]);
  });
});
