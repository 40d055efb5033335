/** `virtctl start NAME [--paused] [--dry-run]`: asks virt-api to start the VM. */
import { Command } from "commander";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { dryRunField, requestLifecycleChange, scheduledMessage } from "./vm-lifecycle-request.js";

interface StartFlags {
  readonly paused: boolean;
  readonly dryRun: boolean;
}

export function startCommand(deps: CommandDeps): Command {
  return new Command("start")
    .description("Start a virtual machine")
    .argument("<name>", "the VirtualMachine")
    .option("--paused", "start the VM paused (its vCPUs halted until unpause)", false)
    .option("--dry-run", "let the server check the request without changing anything", false)
    .action(async (name: string, flags: StartFlags, command: Command) => {
      const api = deps.connect(connectionFlagsOf(command));
      await requestLifecycleChange(api, "virtualmachines", name, "start", {
        ...(flags.paused ? { paused: true } : {}),
        ...dryRunField(flags.dryRun),
      });
      deps.io.stdout.write(scheduledMessage("VM", name, "start", flags.dryRun));
    });
}
