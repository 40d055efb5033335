/**
 * `virtctl scp [-r] [--preserve] SOURCE DESTINATION`: the system's scp to or from a VM, one side
 * `[user@]type/name[/namespace]:path`, with virtctl itself as the ProxyCommand, as KubeVirt's
 * virtctl does. virtctl's exit status is scp's.
 */
import { Command } from "commander";
import { runLocalClient } from "../ssh/local-client.js";
import { scpArguments } from "../ssh/ssh-command-line.js";
import { addSshFlags, localClientOptionsOf, type SshFlags } from "../ssh/ssh-flags.js";
import { parseScpLocations } from "../ssh/ssh-target.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

interface ScpFlags extends SshFlags {
  readonly recursive: boolean;
  readonly preserve: boolean;
}

export function scpCommand(deps: CommandDeps): Command {
  const command = new Command("scp")
    .description("Copy files to or from a virtual machine (through the API server, with the local scp)")
    .usage("[options] SOURCE DESTINATION  (one of them [user@]type/name[/namespace]:path)")
    .argument("<source>", "a local path, or [user@]vm/NAME[/NAMESPACE]:PATH")
    .argument("<destination>", "a local path, or [user@]vm/NAME[/NAMESPACE]:PATH")
    .option("-r, --recursive", "recursively copy entire directories", false)
    .option("--preserve", "preserve modification times, access times and modes of the original files", false);
  return addSshFlags(command).action(
    async (source: string, destination: string, flags: ScpFlags, self: Command) => {
      const locations = parseScpLocations(source, destination);
      const { target, username, path } = locations.remote;
      const connection = connectionFlagsOf(self);
      const namespace = target.namespace ?? deps.connect(connection).namespace;
      const options = localClientOptionsOf(flags, username, connection);
      process.exitCode = await runLocalClient(
        "scp",
        scpArguments({ ...target, namespace }, options, {
          localPath: locations.localPath,
          remotePath: path,
          toRemote: locations.toRemote,
          recursive: flags.recursive,
          preserve: flags.preserve,
        }),
      );
    },
  );
}
