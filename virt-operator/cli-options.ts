import {
  addLeaderElectedOptions,
  componentCommand,
  type LeaderElectedOptions,
  readLeaderElectedOptions,
} from "../runtime/index.js";

/** What virt-operator's flags say: where it runs and how it elects a leader. */
export interface CliOptions extends LeaderElectedOptions {
  readonly namespace: string;
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
    "namespace of the KubeVirt CR, the components, the leader Lease and the certificates (default: $POD_NAMESPACE, else kubevirt)",
    env.POD_NAMESPACE || "kubevirt",
  );
  addLeaderElectedOptions(program, {
    address: env.POD_IP || "0.0.0.0",
    addressFrom: "$POD_IP, else 0.0.0.0",
  }).parse([...argv], { from: "user" });
  return {
    ...readLeaderElectedOptions(program),
    namespace: program.opts<{ namespace: string }>().namespace,
  };
}
