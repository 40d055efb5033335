import { Command, InvalidArgumentError } from "commander";

/** What virt-api's flags say: only where things are (configuration is the KubeVirt CR's). */
export interface CliOptions {
  kubeconfig: string | undefined;
  namespace: string;
  address: string;
  port: number;
  consoleServerPort: number;
  logLevel: string;
}

/** Parses virt-api's command line (`argv` without node and the script); defaults read `env`. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const program = new Command("virt-api")
    .description(
      "kubevirt-ts virt-api: the subresources.kubevirt.io API (console, vnc, start/stop...) and the admission webhooks",
    )
    .option(
      "--kubeconfig <path>",
      "kubeconfig file (default: in-cluster when KUBERNETES_SERVICE_HOST is set, else $KUBECONFIG or ~/.kube/config)",
    )
    .option(
      "--namespace <namespace>",
      "namespace of virt-api, its Secrets, virt-handler and the KubeVirt CR",
      env.POD_NAMESPACE || "kubevirt",
    )
    .option(
      "--address <ip>",
      "address to serve HTTPS on (default: $POD_IP, else 0.0.0.0)",
      env.POD_IP || "0.0.0.0",
    )
    .option("--port <port>", "HTTPS port (0: any free port)", port, 8443)
    .option("--console-server-port <port>", "virt-handler's console server port", port, 8186)
    .option("--log-level <level>", "trace, debug, info, warn, error", "info")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse([...argv], { from: "user" });
  const flags = program.opts<{
    kubeconfig?: string;
    namespace: string;
    address: string;
    port: number;
    consoleServerPort: number;
    logLevel: string;
  }>();
  return {
    kubeconfig: flags.kubeconfig,
    namespace: flags.namespace,
    address: flags.address,
    port: flags.port,
    consoleServerPort: flags.consoleServerPort,
    logLevel: flags.logLevel,
  };
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new InvalidArgumentError("a port is an integer from 0 to 65535");
  return parsed;
}
