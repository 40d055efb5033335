// Installs Debian into a directory with debootstrap, keeping the downloaded packages in a cache directory
// so that later builds fetch only the suite's Release and Packages files.
import { mkdir } from "node:fs/promises";
import { runCommand } from "../guest/run-command.js";

export interface DebootstrapOptions {
  suite: string;
  mirror: string;
  packages: readonly string[];
  targetDir: string;
  /** Downloaded .deb files, shared by builds. */
  packageCacheDir: string;
}

export async function debootstrap(options: DebootstrapOptions): Promise<void> {
  await mkdir(options.packageCacheDir, { recursive: true });
  const args = [
    "--variant=minbase",
    `--cache-dir=${options.packageCacheDir}`,
    `--include=${options.packages.join(",")}`,
    options.suite,
    options.targetDir,
    options.mirror,
  ];
  try {
    await runCommand("debootstrap", args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } catch (error) {
    // debootstrap's own reasons are in the tree's log, not on stderr.
    throw new Error(
      `debootstrap of ${options.suite} failed (see ${options.targetDir}/debootstrap/debootstrap.log)`,
      {
        cause: error,
      },
    );
  }
}
