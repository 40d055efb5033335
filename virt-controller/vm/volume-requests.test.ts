import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { smallVmiSpec } from "../testing/fixtures.js";
import { applyVolumeRequests, remainingVolumeRequests, type VolumeRequest } from "./volume-requests.js";

const addDataOptions = {
  name: "data",
  disk: { name: "data", disk: { bus: "scsi" as const } },
  volumeSource: { persistentVolumeClaim: { claimName: "data-claim" } },
};
const addData: VolumeRequest = { addVolumeOptions: addDataOptions };
const removeData: VolumeRequest = { removeVolumeOptions: { name: "data" } };

describe("volume requests", () => {
  test("an add puts a hotpluggable volume and its disk into the spec, once", () => {
    const spec = smallVmiSpec();
    const change = applyVolumeRequests(spec, [addData]);
    assert.deepEqual(change?.volumes.at(-1), {
      name: "data",
      persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true },
    });
    assert.deepEqual(change?.disks.at(-1), { name: "data", disk: { bus: "scsi" } });
    assert.deepEqual(
      change?.volumes.map((volume) => volume.name),
      ["containerdisk", "data"],
      "the others kept, in order",
    );
    const applied = { ...spec, volumes: change?.volumes, domain: { devices: { disks: change?.disks } } };
    assert.equal(applyVolumeRequests(applied, [addData]), undefined, "reflected: nothing to change");
  });

  test("a DataVolume source is added hotpluggable too", () => {
    const change = applyVolumeRequests(smallVmiSpec(), [
      {
        addVolumeOptions: {
          name: "imported",
          disk: { name: "imported", disk: { bus: "virtio" } },
          volumeSource: { dataVolume: { name: "imported-dv" } },
        },
      },
    ]);
    assert.deepEqual(change?.volumes.at(-1), {
      name: "imported",
      dataVolume: { name: "imported-dv", hotpluggable: true },
    });
  });

  test("a remove takes the volume and its disk out; nothing to do once they are gone", () => {
    const spec = smallVmiSpec();
    const plugged = applyVolumeRequests(spec, [addData]);
    const withData = { ...spec, volumes: plugged?.volumes, domain: { devices: { disks: plugged?.disks } } };
    const change = applyVolumeRequests(withData, [removeData]);
    assert.deepEqual(
      change?.volumes.map((volume) => volume.name),
      ["containerdisk"],
    );
    assert.deepEqual(
      change?.disks.map((disk) => disk.name),
      ["containerdisk"],
    );
    assert.equal(applyVolumeRequests(spec, [removeData]), undefined);
  });

  test("of an add and a later remove of one volume only the remove counts; dry runs count for nothing", () => {
    const spec = smallVmiSpec();
    assert.equal(applyVolumeRequests(spec, [addData, removeData]), undefined);
    const dryRun: VolumeRequest = { addVolumeOptions: { ...addDataOptions, dryRun: ["All"] } };
    assert.equal(applyVolumeRequests(spec, [dryRun]), undefined);
    assert.deepEqual(remainingVolumeRequests([addData, removeData, dryRun], spec, undefined), []);
  });

  test("a request stays until the template and the live VMI both reflect it", () => {
    const spec = smallVmiSpec();
    const plugged = applyVolumeRequests(spec, [addData]);
    const withData = { ...spec, volumes: plugged?.volumes, domain: { devices: { disks: plugged?.disks } } };
    assert.deepEqual(
      remainingVolumeRequests([addData], spec, undefined),
      [addData],
      "not in the template yet",
    );
    assert.deepEqual(remainingVolumeRequests([addData], withData, spec), [addData], "not in the VMI yet");
    assert.deepEqual(remainingVolumeRequests([addData], withData, withData), []);
    assert.deepEqual(
      remainingVolumeRequests([addData], withData, undefined),
      [],
      "no live VMI: the template",
    );
    assert.deepEqual(remainingVolumeRequests([removeData], spec, withData), [removeData]);
    assert.deepEqual(remainingVolumeRequests([removeData], spec, spec), []);
  });
});
