/**
 * `virtctl removevolume NAME --volume-name=VOLUME [--persist] [--dry-run]`: unplugs a hotplugged
 * volume. As in KubeVirt's virtctl, `--persist` asks the VM (the volume leaves its spec and its
 * running VMI); without it the running VMI alone loses it, and the VM keeps it for its next start.
 */
import { Command } from "commander";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { DRY_RUN_NOTICE, requestVolumeChange } from "./volume-request.js";

interface RemoveVolumeFlags {
  readonly volumeName: string;
  readonly dryRun: boolean;
  readonly persist: boolean;
}

export function removeVolumeCommand(deps: CommandDeps): Command {
  return new Command("removevolume")
    .description("Remove a volume from a running VM")
    .argument("<name>", "the VirtualMachineInstance (the VirtualMachine with --persist)")
    .requiredOption("--volume-name <name>", "name used in volumes section of spec")
    .option(
      "--persist",
      "if set, the volume is removed from the VM spec too (the request goes to the VM)",
      false,
    )
    .option("--dry-run", "let the server check the request without changing anything", false)
    .action(async (name: string, flags: RemoveVolumeFlags, command: Command) => {
      const api = deps.connect(connectionFlagsOf(command));
      if (flags.dryRun) deps.io.stdout.write(DRY_RUN_NOTICE);
      await requestVolumeChange(
        api,
        [flags.persist ? "virtualmachines" : "virtualmachineinstances"],
        name,
        "removevolume",
        { name: flags.volumeName, ...(flags.dryRun ? { dryRun: ["All"] } : {}) },
      );
      deps.io.stdout.write(
        `Successfully submitted remove volume request to VM ${name} for volume ${flags.volumeName}\n`,
      );
    });
}
