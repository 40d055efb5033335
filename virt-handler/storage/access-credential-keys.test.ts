// SSH keys of spec.accessCredentials read from launcher pod volumes laid out as the kubelet (and the dev
// cluster's node agent) lays them out, then written into cloud-init's meta-data as KubeVirt does:
// `public-keys` (NoCloud) and `public_keys` (ConfigDrive), the user's user-data left as it was.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import type { VirtualMachineInstanceSpec } from "../../api/index.js";
import { writeVolumePayload } from "../../dev-cluster/node-agent/containers/volume-payload.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { propagatedPublicKeys } from "./access-credential-keys.js";
import { configDriveFiles, noCloudFiles } from "./cloud-init.js";
import type { LauncherPodVolumes } from "./cloud-init-secrets.js";

const identity = { instanceId: "0f6b2c1e-uid", hostname: "guest-1" };
const ALICE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAlice alice@example\n";
const BOB_TWO =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBob1 bob@a\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABob2 bob@b\n";
const OPS = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOps ops@example";
const USER_DATA = "#cloud-config\nruncmd:\n  - echo hi\n";

type Credentials = NonNullable<VirtualMachineInstanceSpec["accessCredentials"]>;
const key = (secretName: string, propagationMethod: object): Credentials[number] =>
  ({ sshPublicKey: { source: { secret: { secretName } }, propagationMethod } }) as Credentials[number];

function rejectsWith(action: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  return assert.rejects(action, (error: unknown) => {
    assert.ok(error instanceof VmiConversionError, String(error));
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
    return true;
  });
}

describe("access credentials' public keys from the launcher pod's volumes", () => {
  let workDir: string;
  let volumesDir: string;
  const asked: string[] = [];
  const podVolumes: LauncherPodVolumes = {
    secretVolumeDir: (podVolumeName, secretName) => {
      asked.push(`${podVolumeName}=${secretName}`);
      return join(volumesDir, podVolumeName);
    },
    imagePullSecretNames: () => [],
    claimVolume: () => Promise.reject(new Error("this VMI has no claims")),
  };

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "access-credentials-"));
    volumesDir = join(workDir, "volumes", "kubernetes.io~secret");
    await mkdir(volumesDir, { recursive: true });
    await writeFile(join(workDir, "host-file"), "a file of the node\n");
    const payload = (entries: Record<string, string>) =>
      new Map(Object.entries(entries).map(([name, text]) => [name, Buffer.from(text)]));
    writeVolumePayload(
      join(volumesDir, "team-access-cred"),
      payload({ "z-bob": BOB_TWO, "a-alice": ALICE, empty: "" }),
      new Date(),
    );
    writeVolumePayload(join(volumesDir, "ops-access-cred"), payload({ key: OPS }), new Date());
    writeVolumePayload(join(volumesDir, "tampered-access-cred"), payload({ good: ALICE }), new Date());
    await symlink(join(workDir, "host-file"), join(volumesDir, "tampered-access-cred", "stolen"));
  });
  after(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  test("every non-empty key of each Secret, by credential then key name; each data source its own", async () => {
    const spec = {
      accessCredentials: [
        key("team", { noCloud: {} }),
        key("ops", { configDrive: {} }),
        key("ops", { noCloud: {} }),
        key("team", { noCloud: {} }),
      ],
    };
    assert.deepEqual(await propagatedPublicKeys(spec, "noCloud", podVolumes), [ALICE, BOB_TWO, OPS]);
    assert.deepEqual(asked.splice(0), ["team-access-cred=team", "ops-access-cred=ops"]);
    assert.deepEqual(await propagatedPublicKeys(spec, "configDrive", podVolumes), [OPS]);
    assert.deepEqual(await propagatedPublicKeys({}, "noCloud", undefined), [], "no credentials, no volumes");
  });

  test("NoCloud meta-data carries them as public-keys; the user's user-data is untouched", () => {
    const files = noCloudFiles("ci", { userData: USER_DATA }, identity, [ALICE, BOB_TWO]);
    assert.equal(files.get("user-data"), USER_DATA);
    assert.deepEqual(parse(files.get("meta-data") ?? ""), {
      "instance-id": identity.instanceId,
      "local-hostname": "guest-1",
      "public-keys": { "0": ALICE, "1": BOB_TWO },
    });
    const without = parse(noCloudFiles("ci", { userData: USER_DATA }, identity).get("meta-data") ?? "");
    assert.equal("public-keys" in without, false, "no keys, no public-keys entry");
  });

  test("ConfigDrive's meta_data.json carries them as public_keys", () => {
    const files = configDriveFiles("cd", { userData: USER_DATA }, identity, [OPS]);
    const metaData = JSON.parse(files.get("openstack/latest/meta_data.json") ?? "{}") as Record<
      string,
      unknown
    >;
    assert.deepEqual(metaData.public_keys, { "0": OPS });
    assert.equal(files.get("openstack/latest/user_data"), USER_DATA);
  });

  test("a key that leads out of its volume is refused, and the node's file is not read", async () => {
    await rejectsWith(
      propagatedPublicKeys({ accessCredentials: [key("tampered", { noCloud: {} })] }, "noCloud", podVolumes),
      "InvalidSpec",
      /key stolen of secret "tampered" leads out of its pod volume/,
    );
  });

  test("a volume not on the node yet is retried; no pod volumes or an unmountable name are refused", async () => {
    await rejectsWith(
      propagatedPublicKeys({ accessCredentials: [key("later", { noCloud: {} })] }, "noCloud", podVolumes),
      "VolumePreparationFailed",
      /the launcher pod's volume later-access-cred \(secret "later"\) is not on this node/,
    );
    await rejectsWith(
      propagatedPublicKeys({ accessCredentials: [key("team", { noCloud: {} })] }, "noCloud", undefined),
      "UnsupportedVolume",
      /needs the launcher pod's volumes/,
    );
    await rejectsWith(
      propagatedPublicKeys({ accessCredentials: [key("my.keys", { noCloud: {} })] }, "noCloud", podVolumes),
      "InvalidSpec",
      /must be a DNS label of at most 51 characters/,
    );
    asked.splice(0);
  });
});
