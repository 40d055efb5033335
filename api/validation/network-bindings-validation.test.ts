// Interface bindings at admission: the bindings KubeVirt discontinued in v1.3 are refused with its
// words, so no VMI is accepted that the node would have to run some other way.
import assert from "node:assert/strict";
import { test } from "node:test";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import { validateVirtualMachineInstance } from "./object-validation.js";

function causesOf(binding: Record<string, unknown>) {
  return validateVirtualMachineInstance(
    withEdits(
      loadTestManifest("vmi-emptydisk.yaml"),
      ["spec.domain.devices.interfaces", [{ name: "default", ...binding }]],
      ["spec.networks", [{ name: "default", pod: {} }]],
    ),
  );
}

test("slirp, macvtap and the core passt are refused as discontinued; masquerade and bridge are accepted", () => {
  for (const [binding, name] of [
    ["slirp", "Slirp"],
    ["macvtap", "Macvtap"],
    ["passt", "Passt"],
  ] as const) {
    const causes = causesOf({ [binding]: {} });
    assert.deepEqual(
      causes.map((cause) => [cause.field, cause.message]),
      [
        [
          `spec.domain.devices.interfaces[0].${binding}`,
          `${name} network binding has been discontinued since v1.3`,
        ],
      ],
    );
  }
  assert.deepEqual(causesOf({ masquerade: {} }), []);
  assert.deepEqual(causesOf({ bridge: {} }), []);
});
