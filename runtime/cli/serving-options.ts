/**
 * The listening flags of a component built on runtime's Manager: `--address`, `--health-port`
 * (plain HTTP /healthz and /readyz, for kubelet probes) and `--metrics-port` (/metrics over HTTPS
 * with the component's serving certificate, KubeVirt's 8443), with `--kubeconfig` and
 * `--log-level`. virt-api, which serves everything on one HTTPS port, keeps common-options.ts's
 * `--port`.
 */
import { type Command, Option } from "commander";
import { addKubeconfigOption, addLogLevelOption } from "./common-options.js";
import { parsePort } from "./option-parsers.js";

/** KubeVirt's metrics port: every component serves `https://POD:8443/metrics`. */
export const DEFAULT_METRICS_PORT = 8443;
/**
 * The plain health port. KubeVirt has none (its probes are HTTPS on 8443); controller-runtime's
 * health probe port is 8081, and a probe that needs no certificate works before the Secret exists.
 */
export const DEFAULT_HEALTH_PORT = 8081;

export interface ServingDefaults {
  readonly address: string;
  /** How the address default is found when it is not a constant, for --help: "$POD_IP, else 0.0.0.0". */
  readonly addressFrom?: string;
}

export interface ServingOptions {
  readonly kubeconfig: string | undefined;
  readonly address: string;
  readonly healthPort: number;
  readonly metricsPort: number;
  readonly logLevel: string;
}

export function addServingOptions(command: Command, defaults: ServingDefaults): Command {
  addKubeconfigOption(command)
    .addOption(
      new Option("--address <ip>", "address of the health and metrics servers").default(
        defaults.address,
        defaults.addressFrom,
      ),
    )
    .option(
      "--health-port <port>",
      "port of /healthz and /readyz, plain HTTP (0: any free port)",
      parsePort,
      DEFAULT_HEALTH_PORT,
    )
    .option(
      "--metrics-port <port>",
      "port of /metrics over HTTPS, once the serving certificate's Secret exists (0: any free port)",
      parsePort,
      DEFAULT_METRICS_PORT,
    );
  return addLogLevelOption(command);
}

export function readServingOptions(command: Command): ServingOptions {
  const { kubeconfig, address, healthPort, metricsPort, logLevel } = command.opts<{
    kubeconfig?: string;
    address: string;
    healthPort: number;
    metricsPort: number;
    logLevel: string;
  }>();
  return { kubeconfig, address, healthPort, metricsPort, logLevel };
}
