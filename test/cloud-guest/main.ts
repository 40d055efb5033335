#!/usr/bin/env node
// `npm run cloud-guest-image`: builds the Debian 12 cloud guest (or finds it in the cache) and prints
// where its files are.
import { Command } from "commander";
import { pino } from "pino";
import { ensureCloudGuest } from "./ensure-cloud-guest.js";
import { publishCloudGuest } from "./publish-to-registry.js";

interface CloudGuestImageOptions {
  cacheDir?: string;
  json?: boolean;
  registry?: string;
}

const program = new Command("cloud-guest-image")
  .description(
    "build the Debian 12 cloud guest (systemd, cloud-init, sshd, qemu-guest-agent) as a bootable qcow2",
  )
  .option("--cache-dir <dir>", "downloaded packages and builds (default .local/cloud-guest)")
  .option(
    "--registry <host:port>",
    "also push it there (plain HTTP) as a containerDisk, kubevirt-ts/debian:12",
  )
  .option("--json", "print the result as JSON")
  .action(async (options: CloudGuestImageOptions) => {
    const log = pino({ name: "cloud-guest-image", level: options.json ? "warn" : "info" });
    try {
      const started = Date.now();
      const guest = await ensureCloudGuest({ cacheDir: options.cacheDir, log });
      if (options.registry) {
        const pushed = await publishCloudGuest(guest, { registry: options.registry });
        log.info(
          { reference: pushed.reference, uploadedBlobs: pushed.uploadedBlobs },
          "pushed the Debian guest",
        );
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(guest, null, 2)}\n`);
        return;
      }
      const how = guest.built ? "built" : "cached";
      process.stdout.write(
        `Debian 12 cloud guest (${how}, ${Date.now() - started} ms), ${guest.digest}\n` +
          `  disk    ${guest.disk} (${guest.format}, boots on its own)\n` +
          `  kernel  ${guest.kernel} (${guest.kernelVersion})\n  initrd  ${guest.initrd}\n` +
          `  kernel args: ${guest.kernelArgs}\n`,
      );
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      process.stderr.write(
        `cloud-guest-image: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
      );
      process.exit(1);
    }
  });

await program.parseAsync(process.argv);
