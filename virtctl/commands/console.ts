/**
 * `virtctl console NAME [--timeout MIN]`: the VMI's serial console on this terminal (raw, Ctrl+]
 * to leave) or on pipes (bytes as they are). Waits up to --timeout minutes for the VMI to run,
 * and follows the VM across restarts.
 */
import { Command } from "commander";
import { DEFAULT_PING_INTERVAL_MS } from "../../runtime/index.js";
import { ConsoleInput } from "../console/console-input.js";
import { runConsoleLoop } from "../console/console-loop.js";
import { enterRawMode, type RawTerminal } from "../console/raw-terminal.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { minutes } from "./flag-parsers.js";

/** KubeVirt's default for --timeout, in minutes. */
const DEFAULT_TIMEOUT_MINUTES = 5;

export function consoleCommand(deps: CommandDeps): Command {
  return new Command("console")
    .description("Connect to the serial console of a virtual machine (escape sequence: Ctrl+])")
    .argument("<name>", "the VirtualMachineInstance (a VM's VMI has the VM's name)")
    .option(
      "--timeout <minutes>",
      "minutes to wait for the VMI to run, first and after each restart",
      minutes,
      DEFAULT_TIMEOUT_MINUTES,
    )
    .action(async (name: string, flags: { timeout: number }, command: Command) => {
      const api = deps.connect(connectionFlagsOf(command));
      const { stdin, stdout, stderr } = deps.io;
      const input = new ConsoleInput(stdin);
      let terminal: RawTerminal | undefined;
      try {
        process.exitCode = await runConsoleLoop({
          api,
          name,
          timeoutMinutes: flags.timeout,
          input,
          output: stdout,
          // libuv's raw mode keeps ONLCR: "\n" still returns the carriage.
          say: (line) => stderr.write(`${line}\n`),
          pingIntervalMs: DEFAULT_PING_INTERVAL_MS,
          onConnected: () => {
            terminal ??= enterRawMode(stdin);
          },
        });
      } finally {
        terminal?.restore();
        input.close();
      }
    });
}
