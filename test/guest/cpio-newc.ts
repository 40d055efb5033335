// A writer for the "newc" cpio format, the one the Linux kernel unpacks as an initramfs
// (Documentation/driver-api/early-userspace/buffer-format.rst). Written here rather than run through a
// `cpio` binary, which Debian hosts lack by default; fixed owners and times also make the archive
// reproducible.
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

export type CpioEntry =
  | { kind: "directory"; path: string; mode: number }
  | { kind: "file"; path: string; mode: number; data: Buffer }
  | { kind: "symlink"; path: string; target: string }
  | { kind: "char-device"; path: string; mode: number; major: number; minor: number };

function hex8(value: number): string {
  return value.toString(16).padStart(8, "0");
}

function padding(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}

interface HeaderFields {
  inode: number;
  mode: number;
  links: number;
  size: number;
  deviceMajor: number;
  deviceMinor: number;
  name: string;
}

function header(fields: HeaderFields): Buffer {
  const name = Buffer.from(`${fields.name}\0`);
  const numbers = [
    fields.inode,
    fields.mode,
    0, // uid
    0, // gid
    fields.links,
    0, // mtime
    fields.size,
    0, // dev major
    0, // dev minor
    fields.deviceMajor,
    fields.deviceMinor,
    name.length,
    0, // check
  ];
  const text = Buffer.from(`070701${numbers.map(hex8).join("")}`, "ascii");
  return Buffer.concat([text, name, padding(text.length + name.length)]);
}

function entryParts(entry: CpioEntry, inode: number): Buffer[] {
  const base = { inode, name: entry.path, deviceMajor: 0, deviceMinor: 0 };
  switch (entry.kind) {
    case "directory":
      return [header({ ...base, mode: S_IFDIR | entry.mode, links: 2, size: 0 })];
    case "char-device":
      return [
        header({
          ...base,
          mode: S_IFCHR | entry.mode,
          links: 1,
          size: 0,
          deviceMajor: entry.major,
          deviceMinor: entry.minor,
        }),
      ];
    case "file":
      return [
        header({ ...base, mode: S_IFREG | entry.mode, links: 1, size: entry.data.length }),
        entry.data,
        padding(entry.data.length),
      ];
    case "symlink": {
      const target = Buffer.from(entry.target);
      return [
        header({ ...base, mode: S_IFLNK | 0o777, links: 1, size: target.length }),
        target,
        padding(target.length),
      ];
    }
  }
}

/** The archive for these entries (paths relative, without a leading slash; parents before children). */
export function cpioNewcArchive(entries: readonly CpioEntry[]): Buffer {
  const parts = entries.flatMap((entry, index) => entryParts(entry, index + 1));
  parts.push(
    header({ inode: 0, mode: 0, links: 1, size: 0, deviceMajor: 0, deviceMinor: 0, name: "TRAILER!!!" }),
  );
  return Buffer.concat(parts);
}

/** Entries for everything under `root` (directories, regular files, symlinks), sorted, parents first. */
export async function directoryCpioEntries(root: string, prefix = ""): Promise<CpioEntry[]> {
  const entries: CpioEntry[] = [];
  const names = (await readdir(join(root, prefix))).sort();
  for (const name of names) {
    const path = prefix ? `${prefix}/${name}` : name;
    const absolute = join(root, path);
    const stats = await lstat(absolute);
    const mode = stats.mode & 0o7777;
    if (stats.isDirectory()) {
      entries.push({ kind: "directory", path, mode });
      entries.push(...(await directoryCpioEntries(root, path)));
    } else if (stats.isSymbolicLink()) {
      entries.push({ kind: "symlink", path, target: await readlink(absolute) });
    } else if (stats.isFile()) {
      entries.push({ kind: "file", path, mode, data: await readFile(absolute) });
    } else {
      throw new Error(`cannot archive ${absolute}: only directories, files and symlinks are supported`);
    }
  }
  return entries;
}
