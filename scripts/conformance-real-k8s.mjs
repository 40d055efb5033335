#!/usr/bin/env node
// Runs the dev API server's kubectl and client-node conformance tests against a real Kubernetes
// control plane instead (the 1.20 of ../shared/real-k8s: kube-apiserver, controller-manager and
// scheduler on loopback, etcd from Debian), each file on a fresh one. A test that cannot apply
// there is skipped with its reason (skippedOnRealApiServer), and those reasons are the list of
// differences in docs/REAL-KUBERNETES.md. Usage: npm run conformance:real-k8s [-- FILE...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const home = resolve(process.env.REAL_K8S_HOME ?? join(root, "..", "shared", "real-k8s"));
const FILES = ["kubectl-builtin", "kubectl-crd", "client-node"];

function fail(message) {
  console.error(`conformance-real-k8s: ${message}`);
  process.exit(2);
}

if (!existsSync(join(home, "scripts", "start-real-k8s.sh")))
  fail(
    `no real Kubernetes at ${home}: set REAL_K8S_HOME to a directory with bin/ and scripts/ (see ../shared/real-k8s/README.md)`,
  );
if (spawnSync("sh", ["-c", "command -v etcd"]).status !== 0)
  fail("etcd is not installed: apt-get install -y etcd-server openssl");

const files = process.argv.length > 2 ? process.argv.slice(2) : FILES;
let status = 0;
for (const name of files) {
  const stateDir = mkdtempSync(join(tmpdir(), `kubevirt-ts-real-k8s-${name}-`));
  const env = { ...process.env, REAL_K8S_DIR: stateDir };
  const started = spawnSync("bash", [join(home, "scripts", "start-real-k8s.sh"), "--fresh"], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
    timeout: 180_000,
  });
  try {
    if (started.status !== 0) {
      console.error(
        `conformance-real-k8s: the control plane did not start for ${name}; logs in ${stateDir}/logs`,
      );
      status = 1;
      continue;
    }
    // The ServiceAccount admission plugin refuses pods until the controller-manager has made the
    // namespace's default account: a fresh cluster is ready for the tests once it exists.
    const kubeconfig = join(stateDir, "kubeconfig");
    const deadline = Date.now() + 60_000;
    while (
      spawnSync("kubectl", ["--kubeconfig", kubeconfig, "get", "serviceaccount", "default", "-n", "default"])
        .status !== 0
    ) {
      if (Date.now() > deadline) fail(`the default ServiceAccount never appeared; logs in ${stateDir}/logs`);
      spawnSync("sleep", ["0.5"]);
    }
    const run = spawnSync(
      process.execPath,
      [
        "--enable-source-maps",
        "--test",
        "--test-reporter=spec",
        join(root, "dist", "test", "apiserver", `${name}.test.js`),
      ],
      {
        cwd: root,
        env: { ...env, KUBEVIRT_TS_REAL_KUBECONFIG: join(stateDir, "kubeconfig") },
        stdio: "inherit",
      },
    );
    if (run.status !== 0) status = 1;
  } finally {
    spawnSync("bash", [join(home, "scripts", "stop-real-k8s.sh")], { env, stdio: "ignore" });
    if (status === 0) rmSync(stateDir, { recursive: true, force: true });
  }
}
process.exit(status);
