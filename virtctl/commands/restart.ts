/** `virtctl restart NAME [--grace-period 0 --force] [--dry-run]`: asks virt-api to restart the VM. */
import { Command } from "commander";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { integer } from "./flag-parsers.js";
import { forcedGracePeriod, GRACE_PERIOD_UNSET } from "./grace-period.js";
import { dryRunField, requestLifecycleChange, scheduledMessage } from "./vm-lifecycle-request.js";

interface RestartFlags {
  readonly gracePeriod: number;
  readonly force: boolean;
  readonly dryRun: boolean;
}

export function restartCommand(deps: CommandDeps): Command {
  return new Command("restart")
    .description("Restart a virtual machine")
    .argument("<name>", "the VirtualMachine")
    .option(
      "--grace-period <seconds>",
      "with --force: 0 restarts the VM at once",
      integer,
      GRACE_PERIOD_UNSET,
    )
    .option("--force", "restart without waiting for the guest to shut down (needs --grace-period=0)", false)
    .option("--dry-run", "let the server check the request without changing anything", false)
    .action(async (name: string, flags: RestartFlags, command: Command) => {
      const gracePeriodSeconds = forcedGracePeriod(flags);
      const api = deps.connect(connectionFlagsOf(command));
      await requestLifecycleChange(api, "virtualmachines", name, "restart", {
        ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
        ...dryRunField(flags.dryRun),
      });
      deps.io.stdout.write(scheduledMessage("VM", name, "restart", flags.dryRun));
    });
}
