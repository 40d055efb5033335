/**
 * VM creation to a Running VMI on a stack, for a containerDisk the node has never pulled (cold: an
 * image of new bytes under a new name, so neither the reference nor the digest is cached) and for
 * one it has (warm: another VM of an image already pulled). examples/vm-tiny.yaml-shaped VMs, whose
 * containerDisk and kernelBoot container both name the image, as container-disks.test.ts does. Each
 * VM is deleted, and its domain gone, before the next is created, so every VM boots on its own.
 */

import { vmKind } from "../test/e2e/testing/kinds.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import type { RunDomains } from "../test/e2e/testing/run-domains.js";
import { RunObjects } from "../test/e2e/testing/run-objects.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import type { TestGuestFiles } from "../test/guest/publish-to-registry.js";
import type { Metric } from "./bench-report.js";
import { median } from "./bench-stats.js";
import { publishUniqueTestGuest } from "./unique-guest-image.js";

const REPETITIONS = 3;
const RUNNING_MS = 300_000;
const GONE_MS = 120_000;

export interface VmBenchContext {
  readonly stack: KubevirtStack;
  readonly domains: RunDomains;
  readonly namespace: string;
}

interface ImageVolumes {
  domain: { firmware?: { kernelBoot?: { container: { image: string } } } };
  volumes: { name: string; containerDisk?: { image: string } }[];
}

/** examples/vm-tiny.yaml named `name`, booting from `image`. */
export function tinyVmFrom(context: VmBenchContext, name: string, image: string) {
  const vm = tinyVm(context.stack.repoRoot, { name, namespace: context.namespace });
  const template = vm.spec.template.spec as unknown as ImageVolumes;
  const kernelBoot = template.domain.firmware?.kernelBoot;
  if (kernelBoot) kernelBoot.container.image = image;
  const disk = template.volumes.find((volume) => volume.containerDisk)?.containerDisk;
  if (!disk) throw new Error("examples/vm-tiny.yaml has no containerDisk volume");
  disk.image = image;
  return vm;
}

/** Milliseconds from creating the VM to its VMI's phase Running. */
export async function createUntilRunning(context: VmBenchContext, vm: ReturnType<typeof tinyVm>) {
  const objects = new RunObjects(context.stack.client, context.namespace);
  const created = Date.now();
  await context.stack.client.resource(vmKind).create(vm);
  await pollUntil(
    `the VMI ${vm.metadata.name} to run`,
    async () => ((await objects.vmi(vm.metadata.name))?.status?.phase === "Running" ? true : undefined),
    { timeoutMs: RUNNING_MS, intervalMs: 50 },
  );
  return Date.now() - created;
}

/** Deletes the VM and waits until its VMI and its libvirt domain are gone. */
export async function deleteVm(context: VmBenchContext, name: string): Promise<void> {
  const objects = new RunObjects(context.stack.client, context.namespace);
  await context.stack.client.resource(vmKind).delete({ namespace: context.namespace, name });
  await pollUntil(`the VMI ${name} to go`, async () => ((await objects.vmi(name)) ? undefined : true), {
    timeoutMs: GONE_MS,
  });
  await pollUntil(
    `the domain of ${name} to go`,
    () => (context.domains.names().includes(context.domains.domainName(name)) ? undefined : true),
    { timeoutMs: GONE_MS },
  );
}

export async function measureVmCreation(
  context: VmBenchContext,
  guest: TestGuestFiles,
): Promise<Record<string, Metric>> {
  const cold: number[] = [];
  const warm: number[] = [];
  const registry = context.stack.registryAddress;
  let pulled = "";
  let layerBytes = 0;
  for (let round = 0; round < REPETITIONS; round++) {
    const repository = `bench/cold-${round}-${Date.now().toString(36)}`;
    ({ layerBytes } = await publishUniqueTestGuest(guest, { registry, repository, tag: "v1" }));
    // The nodes' mirror configuration sends localhost:5000 to the dev cluster's registry.
    const image = `localhost:5000/${repository}:v1`;
    pulled ||= image;
    cold.push(await createUntilRunning(context, tinyVmFrom(context, `cold-${round}`, image)));
    await deleteVm(context, `cold-${round}`);
  }
  for (let round = 0; round < REPETITIONS; round++) {
    warm.push(await createUntilRunning(context, tinyVmFrom(context, `warm-${round}`, pulled)));
    await deleteVm(context, `warm-${round}`);
  }
  return {
    vm_image_layer_bytes: { value: layerBytes / 1e6, unit: "MB (gzip, the test guest)" },
    vm_create_to_running_cold_image: { value: median(cold), unit: "ms" },
    vm_create_to_running_warm_image: { value: median(warm), unit: "ms" },
    vm_create_to_running_cold_minus_warm: { value: median(cold) - median(warm), unit: "ms" },
  };
}
