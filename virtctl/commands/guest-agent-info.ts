/**
 * `virtctl guestosinfo NAME`, `virtctl userlist NAME`, `virtctl fslist NAME`: what the VMI's guest
 * agent reports, printed as KubeVirt's virtctl does (the JSON, indented by two spaces).
 */
import { Command } from "commander";
import { explainFailure } from "../api/explain-failure.js";
import { subresourcePath } from "../api/kubevirt-paths.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

const COMMANDS = [
  ["guestosinfo", "guestosinfo", "the guest OS, host name, time zone, users and file systems"],
  ["userlist", "userlist", "the users logged in to the guest"],
  ["fslist", "filesystemlist", "the guest's file systems"],
] as const;

function guestAgentCommand(deps: CommandDeps, verb: string, subresource: string, what: string): Command {
  return new Command(verb)
    .description(`Print ${what}, as the QEMU guest agent reports them (the VMI needs a connected agent)`)
    .argument("<name>", "the VirtualMachineInstance")
    .action(async (name: string, _flags: unknown, command: Command) => {
      const api = deps.connect(connectionFlagsOf(command));
      let answer: unknown;
      try {
        answer = await api.get(subresourcePath(api.namespace, "virtualmachineinstances", name, subresource));
      } catch (error) {
        throw await explainFailure(api, error, {
          action: `cannot get the ${subresource} of VirtualMachineInstance ${name}`,
          resource: "virtualmachineinstances",
          name,
        });
      }
      deps.io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    });
}

export function guestAgentCommands(deps: CommandDeps): Command[] {
  return COMMANDS.map(([verb, subresource, what]) => guestAgentCommand(deps, verb, subresource, what));
}
