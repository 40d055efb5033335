import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { VmiConversionError } from "../converter/conversion-error.js";
import { configDriveFiles, noCloudFiles } from "./cloud-init.js";

const identity = { instanceId: "0f6b2c1e-uid", hostname: "guest-1" };

function throwsReason(action: () => unknown, reason: string, message: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof VmiConversionError);
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
    return true;
  });
}

describe("cloud-init data source files", () => {
  test("NoCloud: user-data, meta-data with instance-id and local-hostname, network-config", () => {
    const files = noCloudFiles("ci", { userData: "#cloud-config\n", networkData: "version: 2\n" }, identity);
    assert.deepEqual(Object.fromEntries(files), {
      "user-data": "#cloud-config\n",
      "meta-data": "instance-id: 0f6b2c1e-uid\nlocal-hostname: guest-1\n",
      "network-config": "version: 2\n",
    });
  });

  test("NoCloud: base64 fields are decoded; no user data gives an empty user-data file", () => {
    const encoded = Buffer.from("#!/bin/sh\necho hi\n").toString("base64");
    const files = noCloudFiles(
      "ci",
      { userDataBase64: encoded, networkDataBase64: Buffer.from("v: 1").toString("base64") },
      identity,
    );
    assert.equal(files.get("user-data"), "#!/bin/sh\necho hi\n");
    assert.equal(files.get("network-config"), "v: 1");
    assert.equal(noCloudFiles("ci", {}, identity).get("user-data"), "");
    assert.equal(noCloudFiles("ci", {}, identity).has("network-config"), false);
  });

  test("ConfigDrive: OpenStack's layout with the uid as the instance uuid", () => {
    const files = configDriveFiles("cd", { userData: "#cloud-config\n", networkData: "{}" }, identity);
    assert.deepEqual([...files.keys()].sort(), [
      "openstack/latest/meta_data.json",
      "openstack/latest/network_data.json",
      "openstack/latest/user_data",
    ]);
    assert.deepEqual(JSON.parse(files.get("openstack/latest/meta_data.json") ?? ""), {
      uuid: "0f6b2c1e-uid",
      hostname: "guest-1",
      name: "guest-1",
    });
  });

  test("refuses both plain and base64, bad base64, and secret references not read from the pod volume", () => {
    throwsReason(
      () => noCloudFiles("ci", { userData: "a", userDataBase64: "YQ==" }, identity),
      "InvalidSpec",
      /volume ci: set userData or userDataBase64, not both/,
    );
    throwsReason(
      () => noCloudFiles("ci", { userDataBase64: "not base64!" }, identity),
      "InvalidSpec",
      /userDataBase64 is not valid base64/,
    );
    // cloud-init-secrets.ts withSecretData replaces references with their text before.
    assert.throws(
      () => noCloudFiles("ci", { secretRef: { name: "s" } }, identity),
      /volume ci: cloud-init secretRef was not read from the launcher pod's volume/,
    );
    assert.throws(
      () => configDriveFiles("cd", { networkDataSecretRef: { name: "s" } }, identity),
      /networkDataSecretRef was not read/,
    );
  });
});
