import { Command, InvalidArgumentError } from "commander";

/** What virt-operator's flags say: where it runs and how it elects a leader. */
export interface CliOptions {
  kubeconfig: string | undefined;
  namespace: string;
  address: string;
  port: number;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  identity: string | undefined;
  logLevel: string;
}

/**
 * Parses virt-operator's command line (`argv` without node and the script). Defaults come from
 * the downward API where the Deployment sets it: $POD_NAMESPACE, $POD_IP.
 */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  const program = new Command("virt-operator")
    .description("kubevirt-ts virt-operator: a KubeVirt CR → CRDs, RBAC, virt-controller, virt-handler")
    .option(
      "--kubeconfig <path>",
      "kubeconfig file (default: in-cluster when KUBERNETES_SERVICE_HOST is set, else $KUBECONFIG or ~/.kube/config)",
    )
    .option(
      "--namespace <namespace>",
      "namespace of the KubeVirt CR, the components and the leader Lease (default: $POD_NAMESPACE, else kubevirt)",
      env.POD_NAMESPACE || "kubevirt",
    )
    .option(
      "--address <ip>",
      "address of the health and metrics server (default: $POD_IP, else 0.0.0.0)",
      env.POD_IP || "0.0.0.0",
    )
    .option("--port <port>", "port of /healthz, /readyz and /metrics (0: any free port)", port, 8443)
    .option("--leader-elect-lease-duration <seconds>", "how long a Lease holds without renewal", seconds, 15)
    .option(
      "--leader-elect-renew-deadline <seconds>",
      "how long the leader tries to renew before it stops",
      seconds,
      10,
    )
    .option("--leader-elect-retry-period <seconds>", "pause between Lease attempts", seconds, 2)
    .option("--identity <name>", "leader election identity (default: host name and a random suffix)")
    .option("--log-level <level>", "trace, debug, info, warn, error", "info")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse([...argv], { from: "user" });
  const flags = program.opts<{
    kubeconfig?: string;
    namespace: string;
    address: string;
    port: number;
    leaderElectLeaseDuration: number;
    leaderElectRenewDeadline: number;
    leaderElectRetryPeriod: number;
    identity?: string;
    logLevel: string;
  }>();
  return {
    kubeconfig: flags.kubeconfig,
    namespace: flags.namespace,
    address: flags.address,
    port: flags.port,
    leaseDurationMs: flags.leaderElectLeaseDuration * 1000,
    renewDeadlineMs: flags.leaderElectRenewDeadline * 1000,
    retryPeriodMs: flags.leaderElectRetryPeriod * 1000,
    identity: flags.identity,
    logLevel: flags.logLevel,
  };
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new InvalidArgumentError("a port is an integer from 0 to 65535");
  return parsed;
}

function seconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("a positive number of seconds");
  return parsed;
}
