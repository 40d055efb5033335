/**
 * `virtctl port-forward type/name[/namespace] [protocol/]localPort[:targetPort]... [--stdio]
 * [--address A]`: local ports forwarded to a VM's or VMI's ports (KubeVirt's syntax). Every byte
 * goes through the API server to virt-api, which dials the guest. With --stdio, one port's tunnel
 * is this process's stdin and stdout (what `ssh -o ProxyCommand` wants), and virtctl says nothing
 * on stdout; it ends when the tunnel does.
 */
import { Command } from "commander";
import { DEFAULT_PING_INTERVAL_MS } from "../../runtime/index.js";
import type { ApiClient } from "../api/api-client.js";
import { CliError } from "../errors/cli-error.js";
import { type ForwardTarget, parseForwardTarget } from "../portforward/forward-target.js";
import { type ForwardedPort, parseForwardedPorts } from "../portforward/forwarded-ports.js";
import { startForwarder } from "../portforward/local-forwarders.js";
import { openPortForward } from "../portforward/port-forward-stream.js";
import { bridgeToWebSocket } from "../portforward/stream-bridge.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

interface PortForwardFlags {
  readonly stdio: boolean;
  readonly address: string;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export function portForwardCommand(deps: CommandDeps): Command {
  return new Command("port-forward")
    .description(
      "Forward local ports to a virtualmachine or virtualmachineinstance. All traffic goes through the Kubernetes API server: for heavy, lasting traffic use a Service (virtctl expose)",
    )
    .usage("type/name[/namespace] [protocol/]localPort[:targetPort]... [options]")
    .argument(
      "<target>",
      "vm/NAME or vmi/NAME, optionally /NAMESPACE (types: vm, vms, virtualmachine(s), vmi, vmis, virtualmachineinstance(s))",
    )
    .argument(
      "<ports...>",
      "[protocol/]localPort[:targetPort]: tcp (default) or udp; the target port defaults to the local one",
    )
    .option(
      "--stdio",
      "forward the tunnel to stdin/stdout (one port only), e.g. as ssh's ProxyCommand",
      false,
    )
    .option("--address <address>", "the address the local ports are opened on", "127.0.0.1")
    .action(
      async (targetArgument: string, portArguments: string[], flags: PortForwardFlags, command: Command) => {
        const target = parseForwardTarget(targetArgument);
        const ports = parseForwardedPorts(portArguments);
        const [port] = ports;
        if (flags.stdio && (!port || ports.length !== 1)) {
          throw new CliError(
            "only one port supported when forwarding to stdout: pass a single port with --stdio",
          );
        }
        const connection = connectionFlagsOf(command);
        const api = deps.connect({ ...connection, namespace: target.namespace ?? connection.namespace });
        if (flags.stdio && port) {
          process.exitCode = await forwardStdio(deps, api, target, port);
          return;
        }
        const say = (line: string) => deps.io.stderr.write(`${line}\n`);
        await forwardPorts(api, target, ports, flags.address, say);
      },
    );
}

async function forwardStdio(
  deps: CommandDeps,
  api: ApiClient,
  target: ForwardTarget,
  port: ForwardedPort,
): Promise<number> {
  const socket = await openPortForward(api, target, port);
  const code = await bridgeToWebSocket(
    { input: deps.io.stdin, output: deps.io.stdout },
    socket,
    DEFAULT_PING_INTERVAL_MS,
  );
  // 1000 (the guest closed), 1005 (closed without a code): a normal end.
  return code === 1000 || code === 1005 ? 0 : 1;
}

async function forwardPorts(
  api: ApiClient,
  target: ForwardTarget,
  ports: readonly ForwardedPort[],
  address: string,
  say: (line: string) => void,
): Promise<void> {
  const stopped = stopSignal();
  const forwarders = [];
  try {
    for (const port of ports) {
      const forwarder = await startForwarder({
        address,
        port,
        openTunnel: () => openPortForward(api, target, port),
        pingIntervalMs: DEFAULT_PING_INTERVAL_MS,
        say,
      });
      forwarders.push(forwarder);
      say(`forwarding ${port.protocol} ${address}:${forwarder.port} to ${port.remote}`);
    }
    await stopped;
  } finally {
    await Promise.all(forwarders.map((forwarder) => forwarder.close()));
  }
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const signal of STOP_SIGNALS) process.removeListener(signal, stop);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
}
