// A VM whose root disk is a 1Gi dataVolumeTemplate imported from the dev cluster's registry (the
// test guest, as test/e2e/data-volumes.test.ts boots it): seconds from `kubectl apply` to the VMI
// Running, and the part of it until the DataVolume is Succeeded (the VM waits Provisioning until then).
import { stringify } from "yaml";
import type { Kubectl } from "../test/dev-cluster/testing/kubectl.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { RunObjects } from "../test/e2e/testing/run-objects.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import type { Metric } from "./bench-report.js";
import { timeDataVolume } from "./storage-data-volume-timing.js";

export const DV_BOOT_VM = "storage-dv-boot";
const ROOT_DATA_VOLUME = `${DV_BOOT_VM}-root`;
const TEST_GUEST_IMAGE = "localhost:5000/kubevirt-ts/test-guest:latest";
const TIMEOUT_MS = 300_000;

/** examples/vm-tiny.yaml with its root disk on a 1Gi DataVolume of the test guest. */
function vmOnDataVolume(stack: KubevirtStack, namespace: string) {
  const vm = tinyVm(stack.repoRoot, { name: DV_BOOT_VM, namespace, terminationGracePeriodSeconds: 0 });
  const spec = vm.spec as unknown as { dataVolumeTemplates?: object[] };
  spec.dataVolumeTemplates = [
    {
      metadata: { name: ROOT_DATA_VOLUME },
      spec: {
        source: { registry: { url: `docker://${TEST_GUEST_IMAGE}` } },
        storage: { resources: { requests: { storage: "1Gi" } } },
      },
    },
  ];
  const template = vm.spec.template.spec as unknown as { volumes: Record<string, unknown>[] };
  const root = template.volumes.find((volume) => volume.containerDisk);
  if (!root) throw new Error("examples/vm-tiny.yaml has no containerDisk volume");
  delete root.containerDisk;
  root.dataVolume = { name: ROOT_DATA_VOLUME };
  return vm;
}

export async function measureDataVolumeBoot(
  stack: KubevirtStack,
  kubectl: Kubectl,
  namespace: string,
): Promise<Record<string, Metric>> {
  const objects = new RunObjects(stack.client, namespace);
  const manifest = stringify(vmOnDataVolume(stack, namespace));
  const startedAt = Date.now();
  await kubectl.ok(["apply", "-f", "-"], { input: manifest });
  const [dataVolume, runningAt] = await Promise.all([
    timeDataVolume(stack.client, { namespace, name: ROOT_DATA_VOLUME }, startedAt, TIMEOUT_MS),
    objects.waitForVmiPhase(DV_BOOT_VM, "Running", { timeoutMs: TIMEOUT_MS }).then(() => Date.now()),
  ]);
  const toRunning = (runningAt - startedAt) / 1000;
  const toSucceeded = dataVolume.toSucceededMs / 1000;
  return {
    dv_vm_apply_to_vmi_running: { value: toRunning, unit: "s (1Gi dataVolumeTemplate, registry)" },
    dv_vm_apply_to_data_volume_succeeded: { value: toSucceeded, unit: "s" },
    dv_vm_data_volume_succeeded_to_vmi_running: { value: toRunning - toSucceeded, unit: "s" },
    dv_vm_importer_running_to_succeeded: {
      value: (dataVolume.importerMs ?? Number.NaN) / 1000,
      unit: "s (importer container seen running → Succeeded)",
    },
  };
}
