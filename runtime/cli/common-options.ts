/**
 * The options every component has, added to its commander Command and read back after parsing.
 * Each component keeps its own flags and defaults in its cli-options.ts.
 */
import { type Command, Option } from "commander";
import { parseLogLevel, parsePort } from "./option-parsers.js";

export interface ListenDefaults {
  /** What listens there, for --help: "the health and metrics server". */
  readonly serves: string;
  readonly address: string;
  /** How the address default is found when it is not a constant, for --help: "$POD_IP, else 0.0.0.0". */
  readonly addressFrom?: string;
  readonly port: number;
}

export interface CommonOptions {
  readonly kubeconfig: string | undefined;
  readonly address: string;
  readonly port: number;
  readonly logLevel: string;
}

/** `--kubeconfig`, `--address` and `--port` (0: any free port) of what it serves, `--log-level`. */
export function addCommonOptions(command: Command, listen: ListenDefaults): Command {
  addKubeconfigOption(command)
    .addOption(
      // --help shows where a computed default comes from, not the value it has on this machine.
      new Option("--address <ip>", `address of ${listen.serves}`).default(listen.address, listen.addressFrom),
    )
    .option("--port <port>", `port of ${listen.serves} (0: any free port)`, parsePort, listen.port);
  return addLogLevelOption(command);
}

export function readCommonOptions(command: Command): CommonOptions {
  const { kubeconfig, address, port, logLevel } = command.opts<{
    kubeconfig?: string;
    address: string;
    port: number;
    logLevel: string;
  }>();
  return { kubeconfig, address, port, logLevel };
}

export function addKubeconfigOption(command: Command): Command {
  return command.option(
    "--kubeconfig <path>",
    "kubeconfig file (default: in-cluster when KUBERNETES_SERVICE_HOST is set, else $KUBECONFIG or ~/.kube/config)",
  );
}

export function addLogLevelOption(command: Command): Command {
  return command.option("--log-level <level>", "trace, debug, info, warn, error", parseLogLevel, "info");
}
