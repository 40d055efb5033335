// The claim's directory (/data in the pod) as the import uses it: the result `disk.img`, and every
// temporary file beside it under a dot-name that says it is ours, so that a crash at any point (kill -9)
// leaves either a finished disk.img or only temporaries, which the next start removes. Nothing in it is
// followed through a symbolic link: files are created with O_EXCL and opened with O_NOFOLLOW.
import { constants } from "node:fs";
import { chmod, type FileHandle, lstat, open, readdir, realpath, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { ImportError } from "./import-error.js";

/** CDI's name for the disk in a Filesystem claim (KubeVirt reads it there). */
export const DISK_IMAGE_NAME = "disk.img";
/** Every temporary of the importer starts so. */
export const TEMPORARY_PREFIX = ".cdi-import-";

const CREATE_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class DataDir {
  /** The directory on this host, symbolic links of the path resolved once. */
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /** The directory at `hostPath`, which must exist (the claim is mounted before the container starts). */
  static async open(hostPath: string, what = "/data"): Promise<DataDir> {
    let resolved: string;
    try {
      resolved = await realpath(hostPath);
    } catch (error) {
      throw new ImportError(`${what} is not there (${hostPath}): is the claim mounted?`, { cause: error });
    }
    if (!(await lstat(resolved)).isDirectory())
      throw new ImportError(`${what} (${hostPath}) is not a directory`);
    return new DataDir(resolved);
  }

  /** The path of a temporary of ours: `.cdi-import-<name>`. */
  temporary(name: string): string {
    return join(this.path, `${TEMPORARY_PREFIX}${name}`);
  }

  get diskPath(): string {
    return join(this.path, DISK_IMAGE_NAME);
  }

  /** Whether disk.img is already there (a previous run finished); refuses one that is not a regular file. */
  async hasDisk(): Promise<boolean> {
    const stats = await lstat(this.diskPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (stats === undefined) return false;
    if (!stats.isFile()) {
      throw new ImportError(`/data/${DISK_IMAGE_NAME} exists and is not a regular file; refusing to use it`);
    }
    return true;
  }

  /** Removes what an earlier run left (its temporaries only; other files are the user's). */
  async removeTemporaries(): Promise<string[]> {
    const leftovers = (await readdir(this.path)).filter((name) => name.startsWith(TEMPORARY_PREFIX));
    for (const name of leftovers) await removeTree(join(this.path, name));
    return leftovers;
  }

  /** Creates a new, empty temporary file of ours (never an existing one, never through a link). */
  async createTemporary(name: string): Promise<FileHandle> {
    const path = this.temporary(name);
    await rm(path, { force: true, recursive: true });
    return open(path, CREATE_FLAGS, 0o660);
  }

  async removeTemporary(name: string): Promise<void> {
    await removeTree(this.temporary(name));
  }

  /** Moves the finished temporary into place as disk.img: the last step, so disk.img is only ever whole. */
  async publish(handle: FileHandle, name: string): Promise<void> {
    await handle.sync();
    await rename(this.temporary(name), this.diskPath);
    const directory = await open(this.path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}

/** Opens an existing regular file for reading without following a link at its last component. */
export async function openRegularFile(path: string, what: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      throw new ImportError(`${what} is a symbolic link; refusing to follow it`, { cause: error });
    if (code === "ENOENT") throw new ImportError(`${what} does not exist`, { cause: error });
    throw new ImportError(`${what} cannot be opened: ${(error as Error).message}`, { cause: error });
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new ImportError(`${what} is not a regular file`);
  }
  return handle;
}

/**
 * rm -rf that also removes read-only trees (a pulled image's unpacked file system is sealed read-only,
 * which stops a non-root importer from deleting inside it). Links are removed, never followed.
 */
async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EACCES") throw error;
  }
  await makeWritable(path);
  await rm(path, { recursive: true, force: true });
}

async function makeWritable(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isDirectory()) return;
  await chmod(path, 0o700);
  for (const name of await readdir(path)) await makeWritable(join(path, name));
}
