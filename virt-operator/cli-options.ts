import {
  addCommonOptions,
  addLeaderElectionOptions,
  type CommonOptions,
  componentCommand,
  type LeaderElectionOptions,
  readCommonOptions,
  readLeaderElectionOptions,
} from "../runtime/index.js";

/** What virt-operator's flags say: where it runs and how it elects a leader. */
export interface CliOptions extends CommonOptions {
  readonly namespace: string;
  readonly leaderElection: LeaderElectionOptions;
}

/**
 * Parses virt-operator's command line (`argv` without node and the script). Defaults come from
 * the downward API where the Deployment sets it: $POD_NAMESPACE, $POD_IP.
 */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  const program = componentCommand(
    "virt-operator",
    "kubevirt-ts virt-operator: a KubeVirt CR → CRDs, RBAC, virt-controller, virt-handler",
  ).option(
    "--namespace <namespace>",
    "namespace of the KubeVirt CR, the components and the leader Lease (default: $POD_NAMESPACE, else kubevirt)",
    env.POD_NAMESPACE || "kubevirt",
  );
  addCommonOptions(program, {
    serves: "the health and metrics server (/healthz, /readyz, /metrics)",
    address: env.POD_IP || "0.0.0.0",
    addressFrom: "$POD_IP, else 0.0.0.0",
    port: 8443,
  });
  addLeaderElectionOptions(program).parse([...argv], { from: "user" });
  return {
    ...readCommonOptions(program),
    namespace: program.opts<{ namespace: string }>().namespace,
    leaderElection: readLeaderElectionOptions(program),
  };
}
