// An OpenStack config drive as cloud-init's ConfigDrive data source reads it (and as KubeVirt's
// cloudInitConfigDrive volume makes it): an ISO 9660 volume labelled "config-2" holding
// openstack/latest/meta_data.json and openstack/latest/user_data.
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type BuildLog, silentBuildLog } from "../guest/build-log.js";
import { ensureHostCommands } from "../guest/debian-packages.js";
import { commandExists, runCommand } from "../guest/run-command.js";

export interface ConfigDriveContent {
  userData: string;
  /** meta_data.json; cloud-init needs at least `uuid` (the instance id). */
  metaData: { uuid: string; hostname?: string; [key: string]: unknown };
}

export async function createConfigDriveIso(
  content: ConfigDriveContent,
  isoPath: string,
  log: BuildLog = silentBuildLog,
): Promise<void> {
  const sourceDir = join(dirname(isoPath), `.config-drive-${randomBytes(6).toString("hex")}`);
  const latest = join(sourceDir, "openstack", "latest");
  await mkdir(latest, { recursive: true });
  try {
    await writeFile(join(latest, "meta_data.json"), JSON.stringify(content.metaData));
    await writeFile(join(latest, "user_data"), content.userData);
    const mkisofsArgs = ["-quiet", "-output", isoPath, "-volid", "config-2", "-joliet", "-rock", sourceDir];
    if (await commandExists("xorriso")) {
      await runCommand("xorriso", ["-as", "mkisofs", ...mkisofsArgs]);
    } else {
      await ensureHostCommands({ genisoimage: "genisoimage" }, log);
      await runCommand("genisoimage", mkisofsArgs);
    }
  } finally {
    await rm(sourceDir, { recursive: true, force: true });
  }
}
