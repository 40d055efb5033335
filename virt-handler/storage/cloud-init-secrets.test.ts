// Secret references read from a launcher pod volume laid out as the kubelet lays it out (real files in
// a temporary directory): keys are symlinks into `..data`, which links to a timestamped payload.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { writeVolumePayload } from "../../dev-cluster/node-agent/containers/volume-payload.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { configDriveFiles, noCloudFiles } from "./cloud-init.js";
import { type LauncherPodVolumes, withSecretData } from "./cloud-init-secrets.js";

const identity = { instanceId: "0f6b2c1e-uid", hostname: "guest-1" };
const USER_DATA = "#cloud-config\nruncmd:\n  - echo from-secret\n";
const NETWORK_DATA = "version: 2\nethernets: {}\n";

/** The kubelet's atomic-writer layout of a secret volume: `..<time>/<key>`, `..data`, `<key> -> ..data/<key>`. */
async function kubeletSecretVolume(dir: string, keys: Record<string, string>): Promise<void> {
  const payload = "..2025_01_02_03_04_05.123456789";
  await mkdir(join(dir, payload), { recursive: true });
  for (const [key, value] of Object.entries(keys)) {
    await writeFile(join(dir, payload, key), value);
    await symlink(join("..data", key), join(dir, key));
  }
  await symlink(payload, join(dir, "..data"));
}

function throwsReason(action: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  return assert.rejects(action, (error: unknown) => {
    assert.ok(error instanceof VmiConversionError, String(error));
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
    return true;
  });
}

describe("cloud-init data from a launcher pod's secret volume", () => {
  let workDir: string;
  let volumesDir: string;
  const asked: string[] = [];
  /** The pod volumes under `volumesDir`, as vmi/launcher-pod-volumes.ts gives them on a node. */
  const podVolumes: LauncherPodVolumes = {
    secretVolumeDir: (podVolumeName, secretName) => {
      asked.push(`${podVolumeName}=${secretName}`);
      return join(volumesDir, podVolumeName);
    },
    imagePullSecretNames: () => [],
    claimVolume: () => Promise.reject(new Error("this VMI has no claims")),
  };

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "cloud-init-secrets-"));
    volumesDir = join(workDir, "pods", "uid", "volumes", "kubernetes.io~secret");
    await mkdir(volumesDir, { recursive: true });
    await writeFile(join(workDir, "host-file"), "a file of the node, outside every pod volume\n");
    await kubeletSecretVolume(join(volumesDir, "ci-udata"), { userdata: USER_DATA, other: "x" });
    await kubeletSecretVolume(join(volumesDir, "ci-ndata"), { networkData: NETWORK_DATA });
    await kubeletSecretVolume(join(volumesDir, "both-udata"), { userdata: "lower", userData: "camel" });
    await kubeletSecretVolume(join(volumesDir, "camel-udata"), { userData: USER_DATA });
    await kubeletSecretVolume(join(volumesDir, "nokey-udata"), { "user-data": USER_DATA });
    // A key that is a symlink leaving the volume (a tampered volume: the kubelet never writes one).
    await kubeletSecretVolume(join(volumesDir, "escape-udata"), {});
    await symlink(join(workDir, "host-file"), join(volumesDir, "escape-udata", "userdata"));
    await mkdir(join(volumesDir, "escape-ndata"));
    await symlink("../../../../../host-file", join(volumesDir, "escape-ndata", "networkdata"));
    // The kubelet makes the subPath mount of a key the Secret lacks an empty directory.
    await kubeletSecretVolume(join(volumesDir, "subpath-udata"), { userData: USER_DATA });
    await mkdir(join(volumesDir, "subpath-udata", "userdata"));
  });
  after(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  test("NoCloud secretRef and networkDataSecretRef become user-data and network-config", async () => {
    const data = await withSecretData(
      "ci",
      { secretRef: { name: "user-secret" }, networkDataSecretRef: { name: "net-secret" } },
      podVolumes,
    );
    assert.deepEqual(data, { userData: USER_DATA, networkData: NETWORK_DATA });
    assert.deepEqual(asked.splice(0), ["ci-udata=user-secret", "ci-ndata=net-secret"]);
    const files = noCloudFiles("ci", data, identity);
    assert.equal(files.get("user-data"), USER_DATA);
    assert.equal(files.get("network-config"), NETWORK_DATA);
  });

  test("ConfigDrive likewise; inline network data stays as it is", async () => {
    const data = await withSecretData("ci", { secretRef: { name: "s" }, networkData: "{}" }, podVolumes);
    assert.equal(configDriveFiles("ci", data, identity).get("openstack/latest/user_data"), USER_DATA);
    assert.equal(configDriveFiles("ci", data, identity).get("openstack/latest/network_data.json"), "{}");
  });

  test("KubeVirt's key names: userdata first, else userData; a directory counts as no key", async () => {
    assert.equal((await withSecretData("both", { secretRef: { name: "s" } }, podVolumes)).userData, "lower");
    assert.equal(
      (await withSecretData("camel", { secretRef: { name: "s" } }, podVolumes)).userData,
      USER_DATA,
    );
    assert.equal(
      (await withSecretData("subpath", { secretRef: { name: "s" } }, podVolumes)).userData,
      USER_DATA,
    );
  });

  test("data without references is returned as it is, and needs no pod volumes", async () => {
    const inline = { userData: "#cloud-config\n" };
    assert.equal(await withSecretData("ci", inline, undefined), inline);
  });

  test("a missing key is refused with the secret and the key names", async () => {
    await throwsReason(
      withSecretData("nokey", { secretRef: { name: "my-secret" } }, podVolumes),
      "InvalidSpec",
      /^volume nokey: secret "my-secret" has no key userdata or userData$/,
    );
    await throwsReason(
      withSecretData(
        "ci",
        { networkDataSecretRef: { name: "user-secret" } },
        {
          secretVolumeDir: () => join(volumesDir, "ci-udata"),
          imagePullSecretNames: () => [],
          claimVolume: () => Promise.reject(new Error("this VMI has no claims")),
        },
      ),
      "InvalidSpec",
      /secret "user-secret" has no key networkdata or networkData/,
    );
  });

  test("a key that is a symlink leaving the volume is refused, and the file it names is not read", async () => {
    await throwsReason(
      withSecretData("escape", { secretRef: { name: "s" } }, podVolumes),
      "InvalidSpec",
      /volume escape: key userdata of secret "s" leads out of its pod volume \(to .*host-file\): refused/,
    );
    await throwsReason(
      withSecretData("escape", { networkDataSecretRef: { name: "s" } }, podVolumes),
      "InvalidSpec",
      /key networkdata of secret "s" leads out of its pod volume/,
    );
  });

  test("a volume not (yet) on the node is retried, not failed", async () => {
    await throwsReason(
      withSecretData("absent", { secretRef: { name: "s" } }, podVolumes),
      "VolumePreparationFailed",
      /the launcher pod's volume absent-udata \(secret "s"\) is not on this node/,
    );
  });

  test("refuses a reference without name, beside inline data, with a name no pod volume can have, or without pod volumes", async () => {
    asked.splice(0);
    await throwsReason(
      withSecretData("ci", { secretRef: {} }, podVolumes),
      "InvalidSpec",
      /secretRef has no name/,
    );
    await throwsReason(
      withSecretData("ci", { secretRef: { name: "s" }, userDataBase64: "YQ==" }, podVolumes),
      "InvalidSpec",
      /set secretRef or userDataBase64, not both/,
    );
    await throwsReason(
      withSecretData("Cloud_Init", { secretRef: { name: "s" } }, podVolumes),
      "InvalidSpec",
      /lower-case DNS label of at most 57 characters \(its launcher pod volume is Cloud_Init-udata\)/,
    );
    await throwsReason(
      withSecretData("v".repeat(58), { networkDataSecretRef: { name: "s" } }, podVolumes),
      "InvalidSpec",
      /at most 57 characters/,
    );
    await throwsReason(
      withSecretData("ci", { secretRef: { name: "s" } }, undefined),
      "UnsupportedVolume",
      /needs the launcher pod's volumes/,
    );
    assert.deepEqual(asked.splice(0), []);
  });

  test("reads what the dev cluster's node agent writes (its kubelet-style payload)", async () => {
    const dir = join(volumesDir, "agent-udata");
    writeVolumePayload(dir, new Map([["userData", Buffer.from(USER_DATA)]]), new Date());
    assert.equal(
      (await withSecretData("agent", { secretRef: { name: "s" } }, podVolumes)).userData,
      USER_DATA,
    );
  });
});
