// A small ISO 9660 image (with Rock Ridge and Joliet names) made from a set of files: cloud-init's NoCloud
// and ConfigDrive data sources are such images, told apart by their volume label.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { findExecutable, HostToolMissingError, runCommand } from "./host-commands.js";

export interface IsoImageRequest {
  /** The volume label ("cidata", "config-2"). */
  label: string;
  /** Path inside the image ("user-data", "openstack/latest/meta_data.json") → content. */
  files: ReadonlyMap<string, string | Buffer>;
  /** Where the image goes; an existing one is replaced in one rename. */
  path: string;
}

/** The programs that write such images, in order of preference; either takes mkisofs's arguments. */
export const ISO_WRITERS: readonly string[] = ["xorriso", "genisoimage"];

/** The installed ISO writer; never installs one (see host-commands.ts). */
async function isoCommand(): Promise<{ command: string; prefix: string[] }> {
  const xorriso = await findExecutable("xorriso");
  if (xorriso) return { command: xorriso, prefix: ["-as", "mkisofs"] };
  const genisoimage = await findExecutable("genisoimage");
  if (genisoimage) return { command: genisoimage, prefix: [] };
  throw new HostToolMissingError(ISO_WRITERS);
}

export async function createIsoImage(request: IsoImageRequest): Promise<void> {
  const { command, prefix } = await isoCommand(); // before any file is written: a missing tool leaves nothing behind
  const scratch = join(dirname(request.path), `.iso-${randomBytes(6).toString("hex")}`);
  const sourceDir = join(scratch, "files");
  const temporaryIso = join(scratch, "image.iso");
  try {
    for (const [pathInImage, content] of request.files) {
      if (pathInImage.split("/").some((part) => part === "" || part === "." || part === "..")) {
        throw new Error(`"${pathInImage}" is not a plain relative path`);
      }
      const file = join(sourceDir, pathInImage);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
    await mkdir(sourceDir, { recursive: true });
    const args = ["-quiet", "-output", temporaryIso, "-volid", request.label, "-joliet", "-rock", sourceDir];
    await runCommand(command, [...prefix, ...args]);
    await rename(temporaryIso, request.path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
