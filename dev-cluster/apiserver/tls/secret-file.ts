import { randomBytes } from "node:crypto";
import { chmod, mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file atomically (a temporary file in the same directory, then a rename), so that a
 * reader never sees half a key or kubeconfig, with `mode` set before the content becomes
 * visible. Parent directories are created (mode 0700).
 */
export async function writeSecretFile(path: string, content: string, mode = 0o600): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, content, { mode, flag: "wx" });
    await chmod(temporary, mode); // the umask may have narrowed the mode given to open()
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw new Error(`cannot write ${path}`, { cause: error });
  }
}
