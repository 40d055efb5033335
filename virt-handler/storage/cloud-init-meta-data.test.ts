// meta-data is YAML written by a YAML library: whatever the hostname or instance id, parsing it gives
// exactly the two keys; a hostname that is not a DNS-1123 label (a stored VMI admission never saw)
// is refused; a long VMI name gives KubeVirt's hostname.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { VmiConversionError } from "../converter/conversion-error.js";
import { configDriveFiles, noCloudFiles } from "./cloud-init.js";
import { cloudInitHostname, noCloudMetaData } from "./cloud-init-meta-data.js";

const UID = "6a0c6b1e-0c2f-4d4e-9a55-1b2c3d4e5f60";

describe("cloud-init meta-data", () => {
  test("is the two keys, in the form cloud-init's examples use", () => {
    const text = noCloudMetaData({ instanceId: UID, hostname: "guest-1" });
    assert.equal(text, `instance-id: ${UID}\nlocal-hostname: guest-1\n`);
  });

  test("a hostname that looks like a number stays a string", () => {
    const metaData = parse(noCloudMetaData({ instanceId: UID, hostname: "1234" })) as Record<string, unknown>;
    assert.deepEqual(metaData, { "instance-id": UID, "local-hostname": "1234" });
  });

  for (const hostname of ["guest\nuser-data: owned", "guest: x", "#guest", "Guest", "-guest"]) {
    test(`refuses the hostname ${JSON.stringify(hostname)} rather than writing it`, () => {
      for (const write of [
        () => noCloudFiles("cloudinit", { userData: "#cloud-config\n" }, { instanceId: UID, hostname }),
        () => configDriveFiles("cloudinit", { userData: "#cloud-config\n" }, { instanceId: UID, hostname }),
      ]) {
        assert.throws(write, (error: unknown) => {
          assert.ok(error instanceof VmiConversionError);
          assert.equal(error.reason, "InvalidSpec");
          assert.match(error.message, /spec\.hostname .* cannot be the guest's hostname/);
          return true;
        });
      }
    });
  }

  test("a VMI name of 253 characters gives its first label, cut to 63 without a trailing hyphen", () => {
    const name = `${"a".repeat(62)}-${"b".repeat(10)}.${"c".repeat(178)}`;
    assert.equal(cloudInitHostname({ instanceId: UID, hostname: name }), "a".repeat(62));
    const files = configDriveFiles("cloudinit", { userData: "x" }, { instanceId: UID, hostname: name });
    const metaData = JSON.parse(files.get("openstack/latest/meta_data.json") ?? "{}") as Record<
      string,
      unknown
    >;
    assert.equal(metaData.hostname, "a".repeat(62));
  });
});
