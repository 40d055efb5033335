import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCliOptions } from "./cli-options.js";

describe("virt-api's flags", () => {
  test("defaults: namespace and address from the downward API, else kubevirt and 0.0.0.0; port 8443; handler 8186", () => {
    assert.deepEqual(parseCliOptions([], {}), {
      kubeconfig: undefined,
      namespace: "kubevirt",
      address: "0.0.0.0",
      port: 8443,
      consoleServerPort: 8186,
      logLevel: "info",
    });
    const inPod = parseCliOptions([], { POD_NAMESPACE: "virt", POD_IP: "10.244.0.7" });
    assert.equal(inPod.namespace, "virt");
    assert.equal(inPod.address, "10.244.0.7");
  });

  test("flags win over the environment; a bad port is refused", () => {
    const options = parseCliOptions(
      [
        "--kubeconfig",
        "/k",
        "--namespace",
        "ns",
        "--address",
        "127.0.0.1",
        "--port",
        "0",
        "--log-level",
        "debug",
      ],
      { POD_NAMESPACE: "virt", POD_IP: "10.244.0.7" },
    );
    assert.deepEqual(options, {
      kubeconfig: "/k",
      namespace: "ns",
      address: "127.0.0.1",
      port: 0,
      consoleServerPort: 8186,
      logLevel: "debug",
    });
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.throws(() => parseCliOptions(["--port", "99999"], {}));
    } finally {
      process.stderr.write = stderr;
    }
  });
});
