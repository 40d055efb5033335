/**
 * `virtctl ssh [user@]type/name[/namespace] [-c COMMAND]`: the system's ssh to the VM, with
 * virtctl itself as the ProxyCommand (`port-forward --stdio`), as KubeVirt's virtctl does.
 * virtctl's exit status is ssh's.
 */
import { Command } from "commander";
import { runLocalClient } from "../ssh/local-client.js";
import { sshArguments } from "../ssh/ssh-command-line.js";
import { addSshFlags, localClientOptionsOf, type SshFlags } from "../ssh/ssh-flags.js";
import { parseSshTarget } from "../ssh/ssh-target.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

export function sshCommand(deps: CommandDeps): Command {
  const command = new Command("ssh")
    .description("Open an SSH connection to a virtual machine (through the API server, with the local ssh)")
    .usage("[user@]type/name[/namespace] [options]")
    .argument("<target>", "[user@]vm/NAME or [user@]vmi/NAME, optionally /NAMESPACE")
    .option("-c, --command <command>", "a command to run in the VM instead of a shell");
  return addSshFlags(command).action(
    async (argument: string, flags: SshFlags & { command?: string }, self: Command) => {
      const { target, username } = parseSshTarget(argument);
      const connection = connectionFlagsOf(self);
      const namespace = target.namespace ?? deps.connect(connection).namespace;
      const options = localClientOptionsOf(flags, username, connection);
      process.exitCode = await runLocalClient(
        "ssh",
        sshArguments({ ...target, namespace }, options, flags.command),
      );
    },
  );
}
