// Reading the keys of a launcher pod's secret volume on this node, as the kubelet wrote it: each key is
// a symlink into the volume's `..data` payload directory. Links are followed within the volume only, a
// key must be a regular file no bigger than a Secret can be, and an open never blocks or follows a link
// put there since the path was resolved.
import { constants } from "node:fs";
import { type FileHandle, open, readdir, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { VmiConversionError } from "../converter/conversion-error.js";

/** A Secret's pod volume and who asked for it, for messages. */
export interface SecretVolumeSource {
  /** What in the VMI references the Secret: "volume cloudinit", "spec.accessCredentials[0]". */
  readonly owner: string;
  readonly podVolumeName: string;
  readonly secretName: string;
}

/** The API server's limit on a Secret: a bigger file is no Secret's key. */
const MAX_SECRET_BYTES = 1024 * 1024;

/** The volume's real directory; a volume not (yet) on this node is a VolumePreparationFailed (retried). */
export async function secretVolumeRoot(dir: string, source: SecretVolumeSource): Promise<string> {
  try {
    return await realpath(dir);
  } catch (error) {
    if (codeOf(error) !== "ENOENT") throw error;
    throw new VmiConversionError(
      "VolumePreparationFailed",
      `${source.owner}: the launcher pod's volume ${source.podVolumeName} (secret "${source.secretName}") is not on this node: ${dir} does not exist`,
      { cause: error },
    );
  }
}

/** The Secret's key names in the volume, sorted; the kubelet's own `..` entries are not keys. */
export async function secretKeyNames(root: string): Promise<string[]> {
  const names = await readdir(root);
  return names.filter((name) => !name.startsWith("..")).sort();
}

/** The key's text; undefined when the volume has no such file (a directory counts as none). */
export async function readSecretKey(
  root: string,
  key: string,
  source: SecretVolumeSource,
): Promise<string | undefined> {
  // kubelet's atomic writer makes each key a symlink into its `..data` directory: resolve it,
  // then insist that the file is inside the volume.
  let target: string;
  try {
    target = await realpath(join(root, key));
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
  const what = `${source.owner}: key ${key} of secret "${source.secretName}"`;
  if (!target.startsWith(`${root}${sep}`)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `${what} leads out of its pod volume (to ${target}): refused`,
    );
  }
  let handle: FileHandle;
  try {
    // No symlink is left on the resolved path; O_NOFOLLOW refuses one put there since, and
    // O_NONBLOCK keeps a FIFO from blocking the open.
    handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new VmiConversionError(
      "VolumePreparationFailed",
      `${what} changed while it was read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  try {
    const stat = await handle.stat();
    // The kubelet makes a subPath mount of a key the Secret lacks an empty directory.
    if (stat.isDirectory()) return undefined;
    if (!stat.isFile()) throw new VmiConversionError("InvalidSpec", `${what} is not a regular file`);
    if (stat.size > MAX_SECRET_BYTES) {
      throw new VmiConversionError("InvalidSpec", `${what} is larger than a Secret can be (1 MiB)`);
    }
    return (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
}

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error ? String(error.code) : undefined;
}
