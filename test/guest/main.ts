#!/usr/bin/env node
// `npm run guest-image`: builds the test guest (or finds it in the cache) and publishes it to the local
// image store, for the dev cluster and for running tests by hand.
import { Command } from "commander";
import { pino } from "pino";
import { DEFAULT_TEST_GUEST_IMAGE, ensureTestGuest } from "./ensure-test-guest.js";
import { publishDemoStandIns, publishTestGuest } from "./publish-to-registry.js";

interface GuestImageOptions {
  cacheDir?: string;
  store?: string;
  image: string;
  kernelPackage?: string;
  json?: boolean;
  registry?: string;
}

const program = new Command("guest-image")
  .description("build the tiny test guest (Debian kernel + busybox) and publish it to the local image store")
  .option("--cache-dir <dir>", "downloads and builds (default .local/guest-cache)")
  .option("--store <dir>", "the local image store (default .local/images)")
  .option("--image <reference>", "image reference to publish as", DEFAULT_TEST_GUEST_IMAGE)
  .option("--kernel-package <name>", "a versioned Debian kernel package, e.g. linux-image-6.1.0-57-amd64")
  .option(
    "--registry <host:port>",
    "also push it there (plain HTTP) as kubevirt-ts/test-guest:latest, and its bootable-disk form as kubevirt/cirros-container-disk-demo and kubevirt/alpine-container-disk-demo",
  )
  .option("--json", "print the result as JSON")
  .action(async (options: GuestImageOptions) => {
    const log = pino({ name: "guest-image", level: options.json ? "warn" : "info" });
    try {
      const started = Date.now();
      const guest = await ensureTestGuest({
        cacheDir: options.cacheDir,
        storeDir: options.store,
        image: options.image,
        kernelPackage: options.kernelPackage,
        log,
      });
      const pushed = options.registry
        ? await publishTestGuest(guest, { registry: options.registry })
        : undefined;
      if (pushed)
        log.info(
          { reference: pushed.reference, uploadedBlobs: pushed.uploadedBlobs },
          "pushed the test guest",
        );
      if (options.registry) {
        const standIns = await publishDemoStandIns(guest, { registry: options.registry });
        log.info(
          { references: standIns.map((standIn) => standIn.reference) },
          "pushed the stand-ins for KubeVirt's cirros and alpine demo images",
        );
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(guest, null, 2)}\n`);
        return;
      }
      const how = guest.built ? "built" : "cached";
      process.stdout.write(
        `${guest.image} (${how}, ${Date.now() - started} ms): ${guest.imageDirectory}\n` +
          `  kernel  ${guest.kernel} (${guest.kernelVersion})\n  initrd  ${guest.initrd}\n  disk    ${guest.disk}\n` +
          `  kernel args with the disk: ${guest.diskKernelArgs}\n`,
      );
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      process.stderr.write(
        `guest-image: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
      );
      process.exit(1);
    }
  });

await program.parseAsync(process.argv);
