/**
 * `[protocol/]localPort[:targetPort]`, the ports of `virtctl port-forward` (KubeVirt's syntax):
 * tcp unless udp is named; the target port is the local one unless given. Local port 0 takes any
 * free port (virtctl says which).
 */
import { CliError } from "../errors/cli-error.js";

export interface ForwardedPort {
  readonly protocol: "tcp" | "udp";
  readonly local: number;
  readonly remote: number;
}

export function parseForwardedPorts(arguments_: readonly string[]): ForwardedPort[] {
  return arguments_.map(parseForwardedPort);
}

export function parseForwardedPort(argument: string): ForwardedPort {
  const slash = argument.indexOf("/");
  const protocol = slash < 0 ? "tcp" : argument.slice(0, slash).toLowerCase();
  const ports = slash < 0 ? argument : argument.slice(slash + 1);
  if (protocol !== "tcp" && protocol !== "udp") {
    throw new CliError(`unsupported protocol '${protocol}' in '${argument}': use tcp/PORT or udp/PORT`);
  }
  const [localText = "", remoteText, extra] = ports.split(":");
  if (localText === "" || extra !== undefined) {
    throw new CliError(
      `invalid port '${argument}', missing local and/or remote port: write [protocol/]localPort[:targetPort], e.g. 8080:80`,
    );
  }
  const local = portNumber(localText, argument, 0);
  const remote = remoteText === undefined ? local : portNumber(remoteText, argument, 1);
  if (remote === 0) {
    throw new CliError(
      `invalid port '${argument}': local port 0 (any free port) needs a target port, e.g. 0:80`,
    );
  }
  return { protocol, local, remote };
}

function portNumber(text: string, argument: string, lowest: number): number {
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= lowest && value <= 65535)) {
    throw new CliError(
      `invalid port '${text}' in '${argument}': a port is a number from ${lowest} to 65535 ([protocol/]localPort[:targetPort])`,
    );
  }
  return value;
}
