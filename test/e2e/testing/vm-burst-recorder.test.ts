// The burst recorder against a real dev-cluster API server: a launcher pod the scheduler cannot
// place ends the burst at once, with the scheduler's message; pods and VMIs are joined by uid
// whichever event comes first.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KubeClient } from "../../../runtime/index.js";
import { startTestApiServer, type TestApiServer } from "../../harness/api-server-fixture.js";
import { installKubevirtCrds } from "../../harness/kubevirt-crds.js";
import { podKind, vmiKind } from "./kinds.js";
import { pollUntil } from "./poll.js";
import { waitForBurst } from "./vm-burst.js";
import { UnschedulableLauncherError, VmBurstRecorder } from "./vm-burst-recorder.js";

describe("VmBurstRecorder", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "burst-recorder-test" });
    await installKubevirtCrds(client);
  });

  after(async () => {
    client.close();
    await cluster.close();
  });

  test("a launcher pod that fits no node fails the burst with the scheduler's reason", async () => {
    const recorder = await VmBurstRecorder.start(client, "default");
    try {
      // The CRD's schema asks only for spec.domain.devices; no webhook runs in this API server.
      const manifest = {
        apiVersion: "kubevirt.io/v1",
        kind: "VirtualMachineInstance",
        metadata: { name: "vm-1", namespace: "default" },
        spec: { domain: { devices: {} } },
      };
      const vmi = await client.resource(vmiKind).create(manifest);
      const pod = await client.resource(podKind).create({
        apiVersion: "v1",
        kind: "Pod",
        metadata: {
          name: "virt-launcher-vm-1-abcde",
          namespace: "default",
          labels: { "kubevirt.io": "virt-launcher", "kubevirt.io/created-by": vmi.metadata?.uid ?? "" },
        },
        spec: { containers: [{ name: "compute", image: "virt-launcher" }] },
      });
      await pollUntil("the recorder to join the pod to its VMI", () =>
        recorder.vmis.get("vm-1")?.pod ? true : undefined,
      );
      const message = "0/1 nodes are available: 1 Insufficient cpu.";
      await client.resource(podKind).updateStatus({
        ...pod,
        status: {
          phase: "Pending",
          conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable", message }],
        },
      });
      await assert.rejects(
        waitForBurst(recorder, 1, 30_000),
        (error: unknown) =>
          error instanceof UnschedulableLauncherError &&
          error.message === `launcher pod virt-launcher-vm-1-abcde is Unschedulable: ${message}`,
      );
    } finally {
      await recorder.stop();
    }
  });
});
