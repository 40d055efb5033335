// Import throughput of a DataVolume (cdi-importer in its pod): a ~256 MiB half-random raw disk, once
// from the dev cluster's registry as a containerDisk image (named as users name it,
// docker://localhost:5000/..., which the node's mirror configuration sends to the dev registry), once
// over http from a server on the node's bridge. Each into a 512Mi claim, one after the other.
// Throughput counts the disk's bytes (not the gzip layer's), from the DataVolume's creation to Succeeded.
import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { dataVolumeKind } from "../api/index.js";
import { nodeBridgeAddress } from "../dev-cluster/node-agent/node-agent.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { containerDiskImage, pushImage } from "../test/oci-image/index.js";
import { writeHalfRandomDisk } from "./bench-disk-file.js";
import type { Metric } from "./bench-report.js";
import { type DataVolumeTiming, timeDataVolume } from "./storage-data-volume-timing.js";

const DISK_BYTES = 256 * 1024 * 1024;
const CLAIM_SIZE = "512Mi";
const REPOSITORY = "bench/storage-disk";
const TAG = "v1";
const IMPORT_TIMEOUT_MS = 300_000;

/** Serves `file` at /disk.img on the node's bridge address, which pods reach. */
async function serveOnBridge(stack: KubevirtStack, file: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url !== "/disk.img") {
      response.writeHead(404).end("not found");
      return;
    }
    void stat(file).then((info) => {
      response.writeHead(200, { "content-length": info.size, "content-type": "application/octet-stream" });
      createReadStream(file).pipe(response);
    });
  });
  const host = nodeBridgeAddress(stack.podCidr);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}/disk.img` };
}

async function importOnce(
  stack: KubevirtStack,
  namespace: string,
  name: string,
  source: object,
): Promise<DataVolumeTiming> {
  const dataVolumes = stack.client.resource(dataVolumeKind);
  const startedAt = Date.now();
  await dataVolumes.create({
    apiVersion: "cdi.kubevirt.io/v1beta1",
    kind: "DataVolume",
    metadata: { name, namespace },
    spec: { source, storage: { resources: { requests: { storage: CLAIM_SIZE } } } },
  } as Parameters<typeof dataVolumes.create>[0]);
  const timing = await timeDataVolume(stack.client, { namespace, name }, startedAt, IMPORT_TIMEOUT_MS);
  // The next import gets the node to itself: this one's claim and volume go first.
  await dataVolumes.delete({ namespace, name });
  await pollUntil(
    `DataVolume ${name} to go`,
    async () => ((await dataVolumes.get({ namespace, name }).catch(() => undefined)) ? undefined : true),
    { timeoutMs: 60_000 },
  );
  return timing;
}

function importMetrics(prefix: string, timing: DataVolumeTiming): Record<string, Metric> {
  const rate = (ms: number | undefined): number =>
    ms === undefined || ms <= 0 ? Number.NaN : DISK_BYTES / 1e6 / (ms / 1000);
  return {
    [`${prefix}_creation_to_succeeded`]: { value: timing.toSucceededMs / 1000, unit: "s" },
    [`${prefix}_rate`]: {
      value: rate(timing.toSucceededMs),
      unit: "MB/s (disk bytes, creation → Succeeded)",
    },
    [`${prefix}_importer_running_to_succeeded`]: {
      value: (timing.importerMs ?? Number.NaN) / 1000,
      unit: "s (importer container seen running → Succeeded)",
    },
    [`${prefix}_importer_rate`]: { value: rate(timing.importerMs), unit: "MB/s (disk bytes, importer only)" },
    [`${prefix}_importer_by_pod_timestamps`]: {
      value: (timing.importerByPodTimestampsMs ?? Number.NaN) / 1000,
      unit: "s (terminated startedAt → finishedAt, whole s)",
    },
  };
}

export async function measureImports(
  stack: KubevirtStack,
  namespace: string,
  workDir: string,
): Promise<Record<string, Metric>> {
  const disk = join(workDir, "import-disk.img");
  await writeHalfRandomDisk(disk, DISK_BYTES);
  const image = await containerDiskImage({ disk, blobDir: workDir });
  if (image.kind !== "manifest") throw new Error("containerDiskImage built an index, not a manifest");
  const layerBytes = image.layers.reduce((sum, layer) => sum + layer.size, 0);
  await pushImage({ registry: stack.registryAddress, repository: REPOSITORY, tag: TAG, image });

  const registry = await importOnce(stack, namespace, "import-registry", {
    registry: { url: `docker://localhost:5000/${REPOSITORY}:${TAG}` },
  });
  const { server, url } = await serveOnBridge(stack, disk);
  let http: DataVolumeTiming;
  try {
    http = await importOnce(stack, namespace, "import-http", { http: { url } });
  } finally {
    server.close();
  }
  await rm(disk, { force: true });
  return {
    import_disk_bytes: { value: DISK_BYTES / 1e6, unit: "MB (raw, half random)" },
    import_registry_layer_bytes: { value: layerBytes / 1e6, unit: "MB (gzip layer)" },
    ...importMetrics("import_registry", registry),
    ...importMetrics("import_http", http),
  };
}
