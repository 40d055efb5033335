// The launcher pod's labels must be valid label values (at most 63 characters) whatever the VMI's
// name (up to 253): `vm.kubevirt.io/name` carries the guest's hostname, as KubeVirt's does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultVirtualMachineInstanceSpec, KUBEVIRT_DEFAULTS } from "../../api/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { LAUNCHER, renderLauncherPod } from "./launcher-pod.js";

/** apimachinery's IsValidLabelValue. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function launcherLabel(name: string, hostname?: string): string | undefined {
  const spec = { ...smallVmiSpec(), ...(hostname ? { hostname } : {}) };
  const vmi: VirtualMachineInstance = {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name, namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000002" },
    spec,
  };
  const defaulted = defaultVirtualMachineInstanceSpec(spec, KUBEVIRT_DEFAULTS, name);
  const pod = renderLauncherPod(vmi, defaulted, {
    image: "virt-launcher",
    useEmulation: true,
    cpuAllocationRatio: 10,
  });
  return pod.metadata?.labels?.[LAUNCHER.vmNameLabel];
}

test("vm.kubevirt.io/name: the name when short, its first label cut to 63 when long, spec.hostname when set", () => {
  assert.equal(launcherLabel("vm1"), "vm1");
  const long = `${"a".repeat(70)}.${"b".repeat(182)}`;
  const label = launcherLabel(long) ?? "";
  assert.equal(label, "a".repeat(63));
  assert.match(label, LABEL_VALUE);
  assert.equal(launcherLabel(long, "chosen"), "chosen");
});
