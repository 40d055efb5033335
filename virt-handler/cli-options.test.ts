import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCommandLine } from "./cli-options.js";

const argv = (...flags: string[]): string[] => ["node", "virt-handler", ...flags];

// The listening flags as virt-controller's and virt-operator's (runtime/cli/serving-options.ts).
describe("virt-handler's listening flags", () => {
  test("defaults: the pod IP, health on 8081 (HTTP), metrics on 8443 (HTTPS), consoles on 8186", () => {
    const flags = parseCommandLine(argv(), { POD_IP: "10.244.0.7" });
    assert.deepEqual(
      [flags.address, flags.healthPort, flags.metricsPort, flags.consolePort],
      ["10.244.0.7", 8081, 8443, 8186],
    );
    assert.equal(parseCommandLine(argv(), {}).address, "0.0.0.0");
  });

  test("every listening flag", () => {
    const flags = parseCommandLine(
      argv("--address", "127.0.0.1", "--health-port", "0", "--metrics-port", "0", "--console-port", "0"),
      {},
    );
    assert.deepEqual(
      [flags.address, flags.healthPort, flags.metricsPort, flags.consolePort],
      ["127.0.0.1", 0, 0, 0],
    );
  });
});

describe("virt-handler's --kubelet-pods-dir", () => {
  test("the kubelet's pods directory, as a container path: under $KUBEVIRT_TS_ROOT on the dev cluster", () => {
    assert.equal(parseCommandLine(argv(), {}).kubeletPodsDir, "/var/lib/kubelet/pods");
    assert.equal(
      parseCommandLine(argv(), { KUBEVIRT_TS_ROOT: "/data/pods/uid/containers/virt-handler/root" })
        .kubeletPodsDir,
      "/data/pods/uid/containers/virt-handler/root/var/lib/kubelet/pods",
    );
    assert.equal(parseCommandLine(argv("--kubelet-pods-dir", "/k/pods"), {}).kubeletPodsDir, "/k/pods");
  });
});
