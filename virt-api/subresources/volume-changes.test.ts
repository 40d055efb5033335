// The decisions behind addvolume/removevolume that the API tests reach only through a race with
// virt-controller: a remove while the add of the same name is still queued, and a remove by the
// claim's name of a volume named otherwise.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AddVolumeOptions, Volume } from "../../api/index.js";
import { checkedVolumeChange, queuedVolumeRequests, withVolumeChange } from "./volume-changes.js";

const add = (name: string): AddVolumeOptions => ({
  name,
  disk: { name, disk: { bus: "scsi" } },
  volumeSource: { persistentVolumeClaim: { claimName: `${name}-claim`, hotpluggable: true } },
});
const hotplugged: Volume = {
  name: "data",
  persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true },
};

describe("volume changes", () => {
  test("a remove replaces a queued add of the same name; other requests stay in order", () => {
    const queued = queuedVolumeRequests([{ addVolumeOptions: add("a") }, { addVolumeOptions: add("data") }], {
      kind: "remove",
      options: { name: "data" },
    });
    assert.deepEqual(queued, {
      requests: [{ addVolumeOptions: add("a") }, { removeVolumeOptions: { name: "data" } }],
    });
  });

  test("a remove found by its claim names the volume; applying it drops the volume and its disk", () => {
    const checked = checkedVolumeChange([hotplugged], { kind: "remove", options: { name: "data-claim" } });
    assert.deepEqual(checked, { change: { kind: "remove", options: { name: "data" } } });
    if (!("change" in checked)) return;
    const applied = withVolumeChange(
      { volumes: [hotplugged], disks: [{ name: "data" }, { name: "root" }] },
      checked.change,
    );
    assert.deepEqual(applied, { volumes: [], disks: [{ name: "root" }] });
  });

  test("an add applied twice adds once", () => {
    const change = { kind: "add", options: add("b") } as const;
    const once = withVolumeChange({ volumes: [], disks: [] }, change);
    assert.deepEqual(withVolumeChange(once, change), once);
    assert.deepEqual(once.volumes, [
      { name: "b", persistentVolumeClaim: { claimName: "b-claim", hotpluggable: true } },
    ]);
  });
});
