import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { eventually } from "../../test/harness/api-server-fixture.js";
import type { Pod } from "./kinds.js";
import { isContainerWrapper } from "./process/container-process.js";
import { findProcesses, readProcStat } from "./process/proc-stat.js";
import type { PodRecord } from "./state/pod-record.js";
import { type AgentTestCluster, startAgentTestCluster } from "./testing/agent-test-cluster.js";

const agentProgram = fileURLToPath(new URL("../../test/programs/node-agent-process.js", import.meta.url));

/** The node agent in a child process, so that it can be killed with SIGKILL. */
function startAgentProcess(
  configPath: string,
): Promise<{ child: ChildProcess; report: Record<string, unknown> }> {
  const child = spawn(process.execPath, [agentProgram, configPath], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^adopted (.*)$/m.exec(output);
      if (line?.[1]) resolve({ child, report: JSON.parse(line[1]) as Record<string, unknown> });
    });
    child.once("exit", (code) => reject(new Error(`the agent process exited (${code}) before it was ready`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Wrapper processes (one per running container) the agent started under its data dir. */
function containerProcesses(cluster: AgentTestCluster): number[] {
  return findProcesses((argv) => isContainerWrapper(argv, join(cluster.agentOptions.dataDir, "pods")));
}

const running = (pod: Pod): boolean =>
  pod.status?.phase === "Running" && pod.status.containerStatuses?.[0]?.state?.running !== undefined;

describe("a restarted node agent", () => {
  let cluster: AgentTestCluster;
  let configPath: string;
  let agent: ChildProcess | undefined;

  before(async () => {
    cluster = await startAgentTestCluster({ withoutAgent: true });
    configPath = join(cluster.dataDir, "agent.json");
    const { kubeConfig: _kubeConfig, log: _log, ...options } = cluster.agentOptions;
    writeFileSync(configPath, JSON.stringify({ ...options, kubeconfigPath: cluster.api.kubeconfigPath }));
  });
  after(async () => {
    if (agent) await killed(agent);
    // A last agent, in this process, deletes whatever is left.
    await cluster.startAgent();
    await cluster.close();
    assert.deepEqual(containerProcesses(cluster), [], "no container process is left");
  });

  test("after kill -9 adopts the running processes, ends those of deleted pods, and starts nothing twice", async () => {
    agent = (await startAgentProcess(configPath)).child;
    await cluster.createPod("keeps-running", { containers: [{ name: "main", image: "test/sleep" }] });
    await cluster.createPod("is-deleted", { containers: [{ name: "main", image: "test/sleep" }] });
    await cluster.createPod("ends-meanwhile", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", args: ["sleep 1; exit 7"] }],
    });
    const before = await Promise.all(
      ["keeps-running", "is-deleted", "ends-meanwhile"].map((name) =>
        cluster.waitForPod(name, "running", running),
      ),
    );
    const pidsBefore = containerProcesses(cluster).sort();
    assert.equal(pidsBefore.length, 3);

    await killed(agent);
    agent = undefined;
    // While no agent runs: one pod is force-deleted, another one's process ends by itself.
    await cluster.pods.delete({ namespace: "default", name: "is-deleted" }, { gracePeriodSeconds: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(
      containerProcesses(cluster).length,
      2,
      "the processes survive the agent (one ended by itself)",
    );

    const restarted = await startAgentProcess(configPath);
    agent = restarted.child;
    assert.equal(restarted.report.adoptedPods, 2);
    assert.equal(restarted.report.endedProcesses, 1);

    const kept = await cluster.waitForPod("keeps-running", "still running", running);
    assert.equal(kept.status?.containerStatuses?.[0]?.restartCount, 0, "adopted, not restarted");
    assert.equal(
      kept.status?.containerStatuses?.[0]?.containerID,
      before[0]?.status?.containerStatuses?.[0]?.containerID,
    );
    const ended = await cluster.waitForPod(
      "ends-meanwhile",
      "failed",
      (pod) => pod.status?.phase === "Failed",
    );
    assert.equal(
      ended.status?.containerStatuses?.[0]?.state?.terminated?.exitCode,
      7,
      "the real exit status",
    );
    const pidsAfter = containerProcesses(cluster);
    assert.equal(pidsAfter.length, 1, "one process: the adopted one");
    assert.ok(pidsBefore.includes(pidsAfter[0] ?? -1), "the same process as before the kill");
    const record = JSON.parse(
      execFileSync(
        "cat",
        [join(cluster.agentOptions.dataDir, "pods", kept.metadata?.uid ?? "", "agent-state.json")],
        {
          encoding: "utf8",
        },
      ),
    ) as PodRecord;
    assert.equal(record.containers[0]?.process?.startTicks, readProcStat(pidsAfter[0] ?? -1)?.startTicks);
    if (cluster.agentOptions.podNetwork.mode !== "loopback") {
      const namespaces = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
      const bridge = cluster.agentOptions.podNetwork.bridgeName;
      assert.ok(
        !namespaces.includes(`${bridge}-${before[1]?.metadata?.uid}`),
        "the deleted pod's namespace is gone",
      );
    }
    await eventually("the deleted pod's record is gone", () =>
      containerProcesses(cluster).length === 1 ? true : undefined,
    );
  });
});
