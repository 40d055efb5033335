import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCliOptions } from "./cli-options.js";

describe("virt-controller's flags", () => {
  test("defaults: namespace kubevirt, image virt-launcher, port 8443, client-go's lease timings", () => {
    assert.deepEqual(parseCliOptions([]), {
      kubeconfig: undefined,
      namespace: "kubevirt",
      launcherImage: "virt-launcher",
      address: "0.0.0.0",
      port: 8443,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      identity: undefined,
      logLevel: "info",
    });
  });

  test("every flag", () => {
    const options = parseCliOptions([
      "--kubeconfig=/tmp/kc",
      "--namespace=kv",
      "--launcher-image=quay.io/kubevirt/virt-launcher:v1",
      "--address=10.0.0.5",
      "--port=0",
      "--leader-elect-lease-duration=1",
      "--leader-elect-renew-deadline=0.6",
      "--leader-elect-retry-period=0.1",
      "--identity=pod-a",
      "--log-level=debug",
    ]);
    assert.equal(options.kubeconfig, "/tmp/kc");
    assert.equal(options.launcherImage, "quay.io/kubevirt/virt-launcher:v1");
    assert.equal(options.port, 0);
    assert.deepEqual(
      [options.leaseDurationMs, options.renewDeadlineMs, options.retryPeriodMs],
      [1000, 600, 100],
    );
    assert.equal(options.identity, "pod-a");
  });

  test("a bad port or duration is refused with a message", () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.throws(() => parseCliOptions(["--port=70000"]), /port is an integer/);
      assert.throws(
        () => parseCliOptions(["--leader-elect-lease-duration=soon"]),
        /positive number of seconds/,
      );
      assert.throws(() => parseCliOptions(["--no-such-flag"]), /unknown option/);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
