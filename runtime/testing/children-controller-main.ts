/**
 * A process running the children controller under a manager with leader election, for the test
 * that kills a controller mid-reconcile. Usage:
 *   node children-controller-main.js KUBECONFIG IDENTITY [--pause-after-first-create]
 * With the flag it prints "paused" after its first create and then waits forever (to be killed).
 */
import { KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import { Manager } from "../manager/manager.js";
import { stopOnSignals } from "../manager/stop-on-signals.js";
import { addChildrenController } from "./children-controller.js";

const [kubeconfigPath, identity, flag] = process.argv.slice(2);
if (!kubeconfigPath || !identity) {
  process.stderr.write("usage: children-controller-main KUBECONFIG IDENTITY [--pause-after-first-create]\n");
  process.exit(2);
}
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath);
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" }, pino.destination(2));
const manager = new Manager({
  name: "children-controller",
  kubeConfig,
  log,
  leaderElection: {
    namespace: "default",
    name: "children-controller",
    identity,
    leaseDurationMs: 1_000,
    renewDeadlineMs: 600,
    retryPeriodMs: 100,
  },
  informerBackoff: { initialMs: 20, maxMs: 200 },
});
addChildrenController(manager, {
  afterCreate:
    flag === "--pause-after-first-create"
      ? async () => {
          process.stdout.write("paused\n");
          await new Promise(() => {});
        }
      : undefined,
});
stopOnSignals(manager, log);
await manager.start();
process.stdout.write("started\n");
const exit = await manager.done;
process.stdout.write(`exit ${exit.reason}\n`);
process.exitCode = exit.reason === "stopped" ? 0 : 1;
