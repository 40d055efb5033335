import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { eventually } from "../harness/api-server-fixture.js";

const main = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dev-cluster", "main.js");

function kubectl(
  kubeconfig: string,
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      "kubectl",
      ["--kubeconfig", kubeconfig, "--cache-dir", join(dirname(kubeconfig), "cache"), ...args],
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

describe("dev-cluster up: persistence and process lifecycle", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "dev-cluster-persist-"));
  const kubeconfig = join(dataDir, "kubeconfig");
  let child: ChildProcess | undefined;
  after(() => {
    child?.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function up(port: string): Promise<ChildProcess> {
    if (existsSync(kubeconfig)) unlinkSync(kubeconfig);
    const started = spawn(
      process.execPath,
      [
        main,
        "up",
        "--data-dir",
        join(dataDir, "state"),
        "--port",
        port,
        "--kubeconfig",
        kubeconfig,
        "--no-registry",
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    await eventually(
      "the kubeconfig, written once the server is ready",
      () => (existsSync(kubeconfig) ? true : undefined),
      30_000,
    );
    return started;
  }

  test("objects written before a kill -9 are there after a restart, and resourceVersions keep increasing", async () => {
    child = await up("0");
    for (let i = 0; i < 20; i++) {
      const created = await kubectl(kubeconfig, [
        "create",
        "configmap",
        `persisted-${i}`,
        `--from-literal=i=${i}`,
      ]);
      assert.equal(created.code, 0, created.stderr);
    }
    const before = Number(
      (
        await kubectl(kubeconfig, [
          "get",
          "configmap",
          "persisted-19",
          "-o",
          "jsonpath={.metadata.resourceVersion}",
        ])
      ).stdout,
    );
    const server = (
      await kubectl(kubeconfig, ["config", "view", "-o", "jsonpath={.clusters[0].cluster.server}"])
    ).stdout;
    const port = new URL(server).port;
    child.kill("SIGKILL");
    await new Promise((resolve) => child?.once("exit", resolve));

    child = await up(port);
    const list = await kubectl(kubeconfig, ["get", "configmaps", "-o", "name"]);
    for (let i = 0; i < 20; i++) assert.match(list.stdout, new RegExp(`configmap/persisted-${i}\\n`));
    const value = await kubectl(kubeconfig, ["get", "configmap", "persisted-7", "-o", "jsonpath={.data.i}"]);
    assert.equal(value.stdout, "7");
    await kubectl(kubeconfig, ["create", "configmap", "after-restart"]);
    const afterRv = Number(
      (
        await kubectl(kubeconfig, [
          "get",
          "configmap",
          "after-restart",
          "-o",
          "jsonpath={.metadata.resourceVersion}",
        ])
      ).stdout,
    );
    assert.ok(afterRv > before, `${afterRv} > ${before}`);
  });

  test("SIGTERM stops the server cleanly with exit code 0", async () => {
    child ??= await up("0");
    const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    child = undefined;
  });
});
