import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCliOptions } from "./cli-options.js";

// The common flags' parsing is runtime/cli's (component-options.test.ts); here, virt-operator's
// own flags and defaults.
describe("virt-operator's flags", () => {
  test("defaults: namespace kubevirt, all addresses, health on 8081, metrics on 8443, client-go's lease timings", () => {
    assert.deepEqual(parseCliOptions([]), {
      kubeconfig: undefined,
      namespace: "kubevirt",
      address: "0.0.0.0",
      healthPort: 8081,
      metricsPort: 8443,
      leaderElection: { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      logLevel: "info",
    });
  });

  test("namespace and address default to the downward API's POD_NAMESPACE and POD_IP", () => {
    const options = parseCliOptions([], { POD_NAMESPACE: "kv-system", POD_IP: "10.244.0.7" });
    assert.equal(options.namespace, "kv-system");
    assert.equal(options.address, "10.244.0.7");
    const flagsWin = parseCliOptions(["--namespace=a", "--address=127.0.0.1"], {
      POD_NAMESPACE: "b",
      POD_IP: "c",
    });
    assert.deepEqual([flagsWin.namespace, flagsWin.address], ["a", "127.0.0.1"]);
  });

  test("every flag", () => {
    const options = parseCliOptions([
      "--kubeconfig=/tmp/kc",
      "--health-port=0",
      "--metrics-port=9443",
      "--leader-elect-lease-duration=1",
      "--leader-elect-renew-deadline=0.6",
      "--leader-elect-retry-period=0.1",
      "--identity=pod-a",
      "--log-level=debug",
    ]);
    assert.equal(options.kubeconfig, "/tmp/kc");
    assert.deepEqual([options.healthPort, options.metricsPort], [0, 9443]);
    assert.deepEqual(options.leaderElection, {
      identity: "pod-a",
      leaseDurationMs: 1000,
      renewDeadlineMs: 600,
      retryPeriodMs: 100,
    });
    assert.equal(options.logLevel, "debug");
  });

  test("a bad flag is refused with a message", () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.throws(() => parseCliOptions(["--leader-elect-retry-period=0"]), /positive number of seconds/);
      assert.throws(() => parseCliOptions(["--metrics-port=65536"]), /port is an integer/);
      assert.throws(
        () => parseCliOptions(["--port=8443"]),
        /unknown option/,
        "--health-port and --metrics-port",
      );
      assert.throws(() => parseCliOptions(["--no-such-flag"]), /unknown option/);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
