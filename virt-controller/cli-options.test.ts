import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCliOptions } from "./cli-options.js";

// The common flags' parsing is runtime/cli's (component-options.test.ts); here, virt-controller's
// own flags and defaults.
describe("virt-controller's flags", () => {
  test("defaults: namespace kubevirt, image virt-launcher, health on 8081, metrics on 8443, client-go's lease timings", () => {
    assert.deepEqual(parseCliOptions([]), {
      kubeconfig: undefined,
      namespace: "kubevirt",
      launcherImage: "virt-launcher",
      importerImage: "cdi-importer",
      address: "0.0.0.0",
      healthPort: 8081,
      metricsPort: 8443,
      leaderElection: { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      logLevel: "info",
    });
  });

  test("every flag", () => {
    const options = parseCliOptions([
      "--kubeconfig=/tmp/kc",
      "--namespace=kv",
      "--launcher-image=quay.io/kubevirt/virt-launcher:v1",
      "--importer-image=quay.io/kubevirt/cdi-importer:v1",
      "--address=10.0.0.5",
      "--health-port=0",
      "--metrics-port=0",
      "--leader-elect-lease-duration=1",
      "--leader-elect-renew-deadline=0.6",
      "--leader-elect-retry-period=0.1",
      "--identity=pod-a",
      "--log-level=debug",
    ]);
    assert.deepEqual(options, {
      kubeconfig: "/tmp/kc",
      namespace: "kv",
      launcherImage: "quay.io/kubevirt/virt-launcher:v1",
      importerImage: "quay.io/kubevirt/cdi-importer:v1",
      address: "10.0.0.5",
      healthPort: 0,
      metricsPort: 0,
      leaderElection: { identity: "pod-a", leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 },
      logLevel: "debug",
    });
  });

  test("a bad flag is refused with a message", () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.throws(() => parseCliOptions(["--health-port=70000"]), /port is an integer/);
      assert.throws(() => parseCliOptions(["--metrics-port="]), /port is an integer/);
      assert.throws(() => parseCliOptions(["--no-such-flag"]), /unknown option/);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
