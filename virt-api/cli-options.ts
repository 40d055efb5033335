import {
  addCommonOptions,
  type CommonOptions,
  componentCommand,
  parsePort,
  readCommonOptions,
} from "../runtime/index.js";

/** What virt-api's flags say: only where things are (configuration is the KubeVirt CR's). */
export interface CliOptions extends CommonOptions {
  readonly namespace: string;
  readonly consoleServerPort: number;
}

/** Parses virt-api's command line (`argv` without node and the script); defaults read `env`. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const program = componentCommand(
    "virt-api",
    "kubevirt-ts virt-api: the subresources.kubevirt.io API (console, vnc, start/stop...) and the admission webhooks",
  )
    .option(
      "--namespace <namespace>",
      "namespace of virt-api, its Secrets, virt-handler and the KubeVirt CR",
      env.POD_NAMESPACE || "kubevirt",
    )
    .option("--console-server-port <port>", "virt-handler's console server port", parsePort, 8186);
  addCommonOptions(program, {
    serves: "the HTTPS server (the API, the webhooks, health and metrics)",
    address: env.POD_IP || "0.0.0.0",
    addressFrom: "$POD_IP, else 0.0.0.0",
    port: 8443,
  }).parse([...argv], { from: "user" });
  const flags = program.opts<{ namespace: string; consoleServerPort: number }>();
  return {
    ...readCommonOptions(program),
    namespace: flags.namespace,
    consoleServerPort: flags.consoleServerPort,
  };
}
