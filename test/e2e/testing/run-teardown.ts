// The end of an end-to-end run with guests: what a test file's `after` does, in the order that
// leaves nothing behind even when the run failed half way.
import { rm } from "node:fs/promises";
import type { Kubectl } from "../../dev-cluster/testing/kubectl.js";
import { type KubevirtStack, stopKubevirtStack } from "./kubevirt-stack.js";
import { removeNodeLeftovers } from "./node-processes.js";
import { pollUntil } from "./poll.js";
import type { RunDomains } from "./run-domains.js";

export interface RunToTearDown {
  /** Names the run in the report of what had to be removed. */
  label: string;
  namespace: string;
  workDir: string;
  stack: KubevirtStack | undefined;
  kubectl: Kubectl | undefined;
  domains: RunDomains | undefined;
}

/**
 * Deletes the run's VMs first, so that virt-handler shuts their guests down as a user's
 * `kubectl delete` does; then stops the stack, removes what its node left, destroys any domain of
 * the run that is still there, and removes the work directory. Reports on stderr what it removed.
 */
export async function tearDownRun(run: RunToTearDown): Promise<void> {
  const { stack, kubectl, domains } = run;
  const removed: string[] = [];
  if (stack?.running() && kubectl) {
    // VMs first (their VMIs go with them), then VMIs created on their own.
    await kubectl.run(["delete", "vm,vmi", "--all", "-n", run.namespace, "--wait=false"], {
      timeoutMs: 20_000,
    });
    await pollUntil("the run's domains to go", () => (domains?.names().length === 0 ? true : undefined), {
      timeoutMs: 30_000,
    }).catch(() => undefined);
  }
  if (stack) {
    await stopKubevirtStack(stack);
    removed.push(...removeNodeLeftovers(stack));
  }
  if (domains) {
    try {
      removed.push(...(await domains.removeAll()));
    } finally {
      await domains.close(); // an open libvirt connection would keep the test process alive
    }
  }
  if (run.workDir !== "" && !process.env.KEEP_E2E_WORKDIR)
    await rm(run.workDir, { recursive: true, force: true });
  if (removed.length > 0) process.stderr.write(`${run.label} cleanup removed: ${removed.join(", ")}\n`);
}
