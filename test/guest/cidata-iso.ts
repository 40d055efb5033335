// A cloud-init NoCloud data source as real cloud-init expects it: an ISO 9660 volume labelled "cidata" with
// user-data, meta-data and optionally network-config at its root (Rock Ridge and Joliet keep the names).
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type BuildLog, silentBuildLog } from "./build-log.js";
import { ensureHostCommands } from "./debian-packages.js";
import { commandExists, runCommand } from "./run-command.js";

export interface CidataContent {
  userData: string;
  metaData: string;
  networkConfig?: string;
}

/** Writes the cidata ISO to `isoPath` with xorriso when it is there, else with genisoimage (installed when missing). */
export async function createCidataIso(
  content: CidataContent,
  isoPath: string,
  log: BuildLog = silentBuildLog,
): Promise<void> {
  const sourceDir = join(dirname(isoPath), `.cidata-${randomBytes(6).toString("hex")}`);
  await mkdir(sourceDir, { recursive: true });
  try {
    const files = [
      { name: "user-data", text: content.userData },
      { name: "meta-data", text: content.metaData },
      ...(content.networkConfig === undefined
        ? []
        : [{ name: "network-config", text: content.networkConfig }]),
    ];
    for (const file of files) await writeFile(join(sourceDir, file.name), file.text);
    const paths = files.map((file) => join(sourceDir, file.name));
    const mkisofsArgs = ["-quiet", "-output", isoPath, "-volid", "cidata", "-joliet", "-rock", ...paths];
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
