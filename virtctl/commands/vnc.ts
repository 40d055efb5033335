/**
 * `virtctl vnc NAME [--proxy-only] [--port N]`: a local VNC endpoint for the VMI's display.
 * --proxy-only prints the port as KubeVirt does (`{"port":N}` on stdout) and proxies until
 * interrupted; otherwise a local viewer is started on it (virtctl ends with the viewer), or,
 * without one, virtctl says where to point yours.
 */
import { spawn } from "node:child_process";
import { Command } from "commander";
import { DEFAULT_PING_INTERVAL_MS } from "../../runtime/index.js";
import type { ApiClient } from "../api/api-client.js";
import { CliError, oneLine } from "../errors/cli-error.js";
import { waitForRunningVmi } from "../vmi/vmi-readiness.js";
import { LOOPBACK, startVncProxy, type VncProxy } from "../vnc/vnc-proxy.js";
import { findViewer, VIEWER_NAMES } from "../vnc/vnc-viewer.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { port } from "./flag-parsers.js";

interface VncFlags {
  readonly proxyOnly: boolean;
  readonly port: number;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export function vncCommand(deps: CommandDeps): Command {
  return new Command("vnc")
    .description("Open a VNC connection to a virtual machine's display")
    .argument("<name>", "the VirtualMachineInstance (a VM's VMI has the VM's name)")
    .option(
      "--proxy-only",
      'only proxy: print {"port":N} and let any VNC client connect to 127.0.0.1:N',
      false,
    )
    .option("--port <port>", "local port to listen on (0: any free port)", port, 0)
    .action(async (name: string, flags: VncFlags, command: Command) => {
      // Listening for the stop signals first: a Ctrl+C right after the port is printed must
      // find them (until then Node's default would kill the process mid-way).
      const stopped = stopSignal();
      const api = deps.connect(connectionFlagsOf(command));
      await requireRunning(api, name);
      const say = (line: string) => deps.io.stderr.write(`${line}\n`);
      const proxy = await listen(api, name, flags.port, say);
      try {
        if (flags.proxyOnly) {
          deps.io.stdout.write(`${JSON.stringify({ port: proxy.port })}\n`);
          await stopped;
          return;
        }
        const viewer = findViewer(LOOPBACK, proxy.port, process.env.PATH);
        if (!viewer) {
          say(
            `No VNC viewer found on PATH (${VIEWER_NAMES.join(", ")}): point yours at ${LOOPBACK}:${proxy.port} (vnc://${LOOPBACK}:${proxy.port}); Ctrl+C stops the proxy.`,
          );
          await stopped;
          return;
        }
        process.exitCode = await Promise.race([
          runViewer(viewer.command, viewer.args),
          stopped.then(() => 0),
        ]);
      } finally {
        await proxy.close();
      }
    });
}

/** KubeVirt refuses VNC to a VMI that is not running; saying so before listening is clearer. */
async function requireRunning(api: ApiClient, name: string): Promise<void> {
  const readiness = await waitForRunningVmi(api, name, { deadline: Date.now() });
  if (readiness.state === "running") return;
  if (readiness.state === "timed-out") {
    throw new CliError(
      `VMI ${name} is not running yet (phase ${readiness.phase ?? "none"}): try again once it runs`,
    );
  }
  throw new CliError(`VMI ${name} is not running: start it with \`virtctl start ${name}\``);
}

async function listen(
  api: ApiClient,
  name: string,
  localPort: number,
  say: (line: string) => void,
): Promise<VncProxy> {
  try {
    return await startVncProxy({ api, name, port: localPort, pingIntervalMs: DEFAULT_PING_INTERVAL_MS, say });
  } catch (error) {
    throw new CliError(`cannot listen on ${LOOPBACK}:${localPort}: ${oneLine(error)}`, { cause: error });
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

/** Runs the viewer on this terminal; resolves with its exit code. */
function runViewer(command: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { stdio: "inherit" });
    child.once("error", (error) =>
      reject(new CliError(`cannot start ${command}: ${oneLine(error)}`, { cause: error })),
    );
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
