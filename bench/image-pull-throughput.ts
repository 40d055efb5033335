/**
 * Pull throughput from a local registry (Debian's docker-registry on 127.0.0.1): a ~256 MiB
 * containerDisk with one gzip layer, pulled by virt-handler's RegistryImageSource into a fresh cache
 * (download, digest check, gunzip, untar, disk checks), and the same image copied by skopeo into an
 * OCI layout (download and digest check; the layer stays compressed), which is the reference.
 * Throughput counts the layer's compressed bytes, what crosses the wire.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import { startRegistry } from "../dev-cluster/registry/start-registry.js";
import { containerDiskImage, pushImage } from "../test/oci-image/index.js";
import { RegistryImageSource } from "../virt-handler/container-disk/index.js";
import { writeHalfRandomDisk } from "./bench-disk-file.js";
import type { Metric } from "./bench-report.js";
import { median } from "./bench-stats.js";

const run = promisify(execFile);
const DISK_BYTES = 256 * 1024 * 1024;
const REPETITIONS = 3;
const REPOSITORY = "bench/pull-disk";
const TAG = "v1";

/** Seconds `action` takes. */
async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function measurePullThroughput(workDir: string): Promise<Record<string, Metric>> {
  const registry = await startRegistry({
    dataDir: join(workDir, "registry"),
    address: "127.0.0.1:0",
    log: pino({ level: "warn" }),
  });
  try {
    const disk = join(workDir, "disk.img");
    await writeHalfRandomDisk(disk, DISK_BYTES);
    const image = await containerDiskImage({ disk, blobDir: workDir });
    await rm(disk);
    if (image.kind !== "manifest") throw new Error("containerDiskImage built an index, not a manifest");
    const layerBytes = image.layers.reduce((sum, layer) => sum + layer.size, 0);
    await pushImage({ registry: registry.address, repository: REPOSITORY, tag: TAG, image });
    const reference = `${registry.address}/${REPOSITORY}:${TAG}`;

    // The node's mirror configuration is what says "plain http" for this host, as on the dev cluster.
    const hostsDirectory = join(workDir, "hosts");
    await mkdir(join(hostsDirectory, registry.address), { recursive: true });
    await writeFile(
      join(hostsDirectory, registry.address, "hosts.toml"),
      `server = "${registry.url}"\n\n[host."${registry.url}"]\n  capabilities = ["pull", "resolve"]\n`,
    );

    const ours: number[] = [];
    const skopeo: number[] = [];
    for (let round = 0; round < REPETITIONS; round++) {
      const cacheDirectory = join(workDir, `cache-${round}`);
      const source = new RegistryImageSource({
        cacheDirectory,
        maxCacheBytes: 4 * DISK_BYTES,
        hostsDirectory,
      });
      ours.push(
        await timed(async () => {
          const resolved = await source.resolve(reference);
          if (resolved.disk === undefined) throw new Error(`${reference} resolved without a disk`);
        }),
      );
      await rm(cacheDirectory, { recursive: true, force: true });

      const layout = join(workDir, `skopeo-${round}`);
      skopeo.push(await timed(() => skopeoCopy(`docker://${reference}`, `oci:${layout}:${TAG}`)));
      await rm(layout, { recursive: true, force: true });
    }
    const mbPerSecond = (seconds: number) => layerBytes / 1e6 / seconds;
    const oursRate = mbPerSecond(median(ours));
    const skopeoRate = mbPerSecond(median(skopeo));
    return {
      pull_layer_bytes: { value: layerBytes / 1e6, unit: "MB (gzip, of a 256 MiB disk)" },
      pull_cold_registry_image_source: { value: median(ours) * 1000, unit: "ms" },
      pull_cold_registry_image_source_rate: { value: oursRate, unit: "MB/s" },
      pull_skopeo_copy: { value: median(skopeo) * 1000, unit: "ms" },
      pull_skopeo_copy_rate: { value: skopeoRate, unit: "MB/s" },
      pull_rate_vs_skopeo: { value: oursRate / skopeoRate, unit: "times skopeo" },
    };
  } finally {
    await registry.stop();
  }
}

async function skopeoCopy(from: string, to: string): Promise<void> {
  try {
    await run("skopeo", ["copy", "--quiet", "--src-tls-verify=false", from, to], {
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? "";
    throw new Error(`skopeo copy ${from} failed (Debian package skopeo): ${stderr}`, { cause: error });
  }
}
