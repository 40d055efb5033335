import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, type TestContext, test } from "node:test";
import { pino } from "pino";
import { type Node, nodeKind } from "../kinds.js";
import { eventually, type HandlerCluster, startHandlerCluster } from "../testing/handler-cluster.js";
import { checkHostTools } from "./host-tools.js";
import { HOST_TOOLS_CONDITION } from "./host-tools-condition.js";
import { NodeHeartbeat } from "./node-heartbeat.js";
import { KVM_RESOURCE } from "./node-state.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

describe("NodeHeartbeat against the dev API server", () => {
  let cluster: HandlerCluster;
  let workDir: string;
  before(async () => {
    cluster = await startHandlerCluster();
    workDir = await mkdtemp(join(tmpdir(), "heartbeat-"));
  });
  after(async () => {
    await cluster.close();
    await rm(workDir, { recursive: true, force: true });
  });

  /** A PATH directory of its own with real executable files (that do nothing) under these names. */
  async function pathWith(...programs: string[]): Promise<string> {
    const bin = await mkdtemp(join(workDir, "bin-"));
    for (const name of programs) await installProgram(bin, name);
    return bin;
  }

  async function installProgram(bin: string, name: string): Promise<void> {
    await writeFile(join(bin, name), "#!/bin/sh\nexit 0\n");
    await chmod(join(bin, name), 0o755);
  }

  /** Runs the heartbeat until the test ends (or until the returned stop). */
  function startBeating(t: TestContext, heartbeat: NodeHeartbeat): () => Promise<void> {
    const abort = new AbortController();
    const running = heartbeat.run(abort.signal);
    const stop = (): Promise<void> => {
      abort.abort();
      return running;
    };
    t.after(stop);
    return stop;
  }

  const node = () => cluster.client.resource(nodeKind).get({ name: cluster.nodeName });
  const hostToolsCondition = (current: Node) =>
    current.status?.conditions?.find((condition) => condition.type === HOST_TOOLS_CONDITION);

  test("schedulable follows libvirt at once, KVM is advertised when it works, and stopping unschedules", async (t) => {
    const bin = await pathWith("qemu-img", "xorriso", "nft", "ip", "sysctl", "zstd");
    let answers = true;
    const heartbeat = new NodeHeartbeat({
      nodeName: cluster.nodeName,
      nodes: cluster.client.resource(nodeKind),
      libvirtAnswers: () => answers,
      kvm: { usable: true, detail: "the test says so" },
      hostTools: () => checkHostTools(bin),
      intervalMs: 60_000,
      log,
    });
    const stop = startBeating(t, heartbeat);
    const first = await eventually("the first heartbeat", async () => {
      const current = await node();
      return current.metadata?.labels?.["kubevirt.io/schedulable"] === "true" ? current : undefined;
    });
    assert.ok(first.metadata?.annotations?.["kubevirt.io/heartbeat"]);
    assert.equal(first.status?.capacity?.[KVM_RESOURCE], "1k");
    assert.equal(first.status?.allocatable?.[KVM_RESOURCE], "1k");

    answers = false; // libvirt's connection was lost: the handler triggers a beat
    heartbeat.trigger();
    await eventually("unschedulable", async () =>
      (await node()).metadata?.labels?.["kubevirt.io/schedulable"] === "false" ? true : undefined,
    );
    answers = true;
    heartbeat.trigger();
    await eventually("schedulable again", async () =>
      (await node()).metadata?.labels?.["kubevirt.io/schedulable"] === "true" ? true : undefined,
    );

    await stop();
    assert.equal((await node()).metadata?.labels?.["kubevirt.io/schedulable"], "false");
  });

  test("a node without an ISO writer: the condition and unschedulable; installing one is noticed on a later beat", async (t) => {
    const bin = await pathWith("qemu-img", "nft", "ip", "sysctl", "zstd");
    const ready = {
      type: "Ready",
      status: "True",
      reason: "KubeletReady",
      message: "kubelet is posting ready status",
    };
    await cluster.client
      .resource(nodeKind)
      .mergePatch({ name: cluster.nodeName }, { status: { conditions: [ready] } }, { subresource: "status" });
    await mkdir(join(bin, "genisoimage")); // a directory, not a program: still missing
    const heartbeat = new NodeHeartbeat({
      nodeName: cluster.nodeName,
      nodes: cluster.client.resource(nodeKind),
      libvirtAnswers: () => true,
      kvm: { usable: false, detail: "the test says so" },
      hostTools: () => checkHostTools(bin),
      intervalMs: 60_000,
      log,
    });
    startBeating(t, heartbeat);
    const missing = await eventually("the host-tools condition", async () => {
      const current = await node();
      return hostToolsCondition(current)?.status === "True" ? current : undefined;
    });
    assert.equal(missing.metadata?.labels?.["kubevirt.io/schedulable"], "false");
    const condition = hostToolsCondition(missing);
    assert.equal(condition?.reason, "HostToolsMissing");
    assert.match(condition?.message ?? "", /xorriso or genisoimage/);
    assert.match(condition?.message ?? "", /npm run setup-host, or the virt-handler image/);
    assert.equal(
      missing.status?.conditions?.find((c) => c.type === "Ready")?.status,
      "True",
      "the kubelet's kept",
    );

    await rm(join(bin, "genisoimage"), { recursive: true });
    await installProgram(bin, "genisoimage"); // the admin installs it; no restart
    heartbeat.trigger();
    const installed = await eventually("schedulable with the tool", async () => {
      const current = await node();
      return current.metadata?.labels?.["kubevirt.io/schedulable"] === "true" ? current : undefined;
    });
    assert.equal(hostToolsCondition(installed)?.status, "False");
    assert.equal(hostToolsCondition(installed)?.reason, "HostToolsInstalled");
    assert.equal(installed.status?.conditions?.length, 2);
  });
});
