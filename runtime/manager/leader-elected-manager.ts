import type { Logger } from "pino";
import type { LeaderElectedOptions } from "../cli/leader-elected-options.js";
import { loadKubeConfig } from "../client/load-kube-config.js";
import { systemClock } from "../clock/clock.js";
import { Manager, type ManagerExit } from "./manager.js";

export interface LeaderElectedManagerOptions {
  /** The component's name, which is also its Lease's. */
  readonly name: string;
  /** Where its Lease and its serving certificate's Secret are. */
  readonly namespace: string;
  /** The Secret (kubernetes.io/tls) whose certificate /metrics serves with. */
  readonly metricsSecret: string;
  readonly flags: LeaderElectedOptions;
  readonly log: Logger;
  /** Where the kubeconfig is found without `--kubeconfig` (in-cluster, $KUBECONFIG). */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The Manager of a leader-elected component's process, as its flags say: controllers run only
 * while it holds the Lease `namespace/name`; /healthz and /readyz are served over plain HTTP and
 * /metrics over HTTPS (KubeVirt's https://POD:8443/metrics) with the certificate of `metricsSecret`.
 */
export function leaderElectedManager(options: LeaderElectedManagerOptions): Manager {
  const { name, namespace, flags } = options;
  return new Manager({
    name,
    kubeConfig: loadKubeConfig(flags.kubeconfig, options.env),
    log: options.log,
    leaderElection: { namespace, name, ...flags.leaderElection },
    health: { host: flags.address, port: flags.healthPort },
    metrics: {
      host: flags.address,
      port: flags.metricsPort,
      secret: { namespace, name: options.metricsSecret },
    },
    clock: systemClock,
  });
}

/** 0 when the manager was stopped; 1 when it lost its Lease or failed, so it restarts as a fresh candidate. */
export function exitCodeOf(exit: ManagerExit): number {
  return exit.reason === "stopped" ? 0 : 1;
}
