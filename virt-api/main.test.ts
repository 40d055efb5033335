// virt-api as a process (the `virt-api` command): flags, kubeconfig, serving once its Secret is
// there, answering as the aggregation layer's backend, and a clean exit on SIGTERM.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { eventually } from "../test/harness/api-server-fixture.js";
import { freePort } from "../test/harness/free-port.js";
import { vmKind } from "./kinds.js";
import { createVm, subresourcePath, TEST_NAMESPACE } from "./testing/test-objects.js";
import { NAMESPACE, startVirtApiFixture, type VirtApiFixture } from "./testing/virt-api-fixture.js";

const mainScript = fileURLToPath(new URL("./main.js", import.meta.url));

describe("the virt-api command", () => {
  let fixture: VirtApiFixture;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let port: number;

  before(async () => {
    fixture = await startVirtApiFixture();
    port = await freePort();
    child = spawn(
      process.execPath,
      [
        mainScript,
        "--kubeconfig",
        fixture.api.kubeconfigPath,
        "--namespace",
        NAMESPACE,
        "--address",
        "127.0.0.1",
        "--port",
        String(port),
        "--console-server-port",
        String(fixture.handler.port),
        "--log-level",
        process.env.TEST_LOG_LEVEL ?? "warn",
      ],
      // Its logs go to stderr: the test runner reads this process's stdout.
      { stdio: ["ignore", 2, 2] },
    );
    exited = once(child, "exit").then(([code]) => code as number | null);
  });
  after(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await fixture.close();
  });

  test("serves over TLS with its Secret's certificate, takes the front-proxy's callers, and stops on SIGTERM", async () => {
    await eventually("the process to be ready", async () => {
      const answer = await fixture.call("GET", "/readyz", { certificate: null, port });
      return answer.code === 200 ? true : undefined;
    });
    await createVm(fixture.client, "process-vm", "Halted");
    const started = await fixture.call("PUT", subresourcePath("virtualmachines", "process-vm", "start"), {
      port,
    });
    assert.equal(started.code, 202, started.body);
    const vm = await fixture.client.resource(vmKind).get({ namespace: TEST_NAMESPACE, name: "process-vm" });
    assert.equal(vm.spec.runStrategy, "Always");
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  });
});
