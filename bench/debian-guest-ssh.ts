/**
 * The Debian 12 cloud guest (test/cloud-guest/) as a containerDisk that boots on its own (boot
 * loader on the disk, no kernelBoot): the time from creating its VM to its sshd's banner, read over
 * TCP at the launcher pod's IP port 22 from the host (the masquerade binding forwards it). The time
 * includes pulling the image, which the node has never seen.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import type { CloudGuest } from "../test/cloud-guest/ensure-cloud-guest.js";
import { vmKind } from "../test/e2e/testing/kinds.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { RunObjects } from "../test/e2e/testing/run-objects.js";
import { containerDiskImage, pushImage } from "../test/oci-image/index.js";
import type { Metric } from "./bench-report.js";
import { deleteVm, tinyVmFrom, type VmBenchContext } from "./vm-image-creation.js";

const VM = "debian";
const SSH_MS = 900_000;
const MEMORY = "1Gi";

/** The first line the server sends at `host`:22, if it answers within a second. */
function sshBanner(host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port: 22, timeout: 1000 });
    let received = "";
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.includes("\n")) done(received.split("\n")[0]);
    });
    socket.on("timeout", () => done(undefined));
    socket.on("error", () => done(undefined));
    socket.on("end", () => done(undefined));
  });
}

export async function measureDebianSsh(
  context: VmBenchContext,
  guest: CloudGuest,
  scratchDir: string,
): Promise<Record<string, Metric>> {
  const blobDir = await mkdtemp(join(scratchDir, "debian-image-"));
  const repository = `bench/debian-${Date.now().toString(36)}`;
  let layerBytes = 0;
  try {
    const image = await containerDiskImage({ disk: guest.disk, fileName: "disk.qcow2", blobDir });
    layerBytes = image.kind === "manifest" ? image.layers.reduce((sum, layer) => sum + layer.size, 0) : 0;
    await pushImage({ registry: context.stack.registryAddress, repository, tag: "v1", image });
  } finally {
    await rm(blobDir, { recursive: true, force: true });
  }
  const vm = tinyVmFrom(context, VM, `localhost:5000/${repository}:v1`);
  const template = vm.spec.template.spec as unknown as { domain: { firmware?: unknown } };
  delete template.domain.firmware; // the disk's own boot loader boots it
  vm.spec.template.spec.domain.resources.requests.memory = MEMORY;
  const objects = new RunObjects(context.stack.client, context.namespace);

  const created = Date.now();
  await context.stack.client.resource(vmKind).create(vm);
  const podIP = await pollUntil(
    "the Debian VM's launcher pod IP",
    async () => (await objects.launcherPods(VM))[0]?.status?.podIP,
    { timeoutMs: SSH_MS, intervalMs: 100 },
  );
  const banner = await pollUntil("the Debian guest's SSH banner", async () => sshBanner(podIP), {
    timeoutMs: SSH_MS,
    intervalMs: 200,
  });
  const elapsed = Date.now() - created;
  if (!banner.startsWith("SSH-2.0")) throw new Error(`port 22 of the Debian guest answered "${banner}"`);
  await deleteVm(context, VM);
  return {
    debian_image_layer_bytes: { value: layerBytes / 1e6, unit: "MB (gzip, Debian 12 qcow2)" },
    vm_create_to_ssh_banner_debian: { value: elapsed, unit: "ms" },
  };
}
