/**
 * `virtctl pause vm|vmi NAME` and `virtctl unpause vm|vmi NAME`: freeze or thaw the guest's vCPUs
 * (its memory stays). Both act on the VMI; for `vm` it is the VM's VMI, which has the VM's name.
 */
import { Argument, Command } from "commander";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { explainFailure, notFound } from "../api/explain-failure.js";
import { objectPath, subresourcePath } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { dryRunField, scheduledMessage } from "./vm-lifecycle-request.js";

type Verb = "pause" | "unpause";

export function pauseCommand(deps: CommandDeps): Command {
  return freezeCommand(deps, "pause", "Pause a virtual machine: its vCPUs stop, its memory stays");
}

export function unpauseCommand(deps: CommandDeps): Command {
  return freezeCommand(deps, "unpause", "Unpause a paused virtual machine");
}

function freezeCommand(deps: CommandDeps, verb: Verb, description: string): Command {
  return new Command(verb)
    .description(description)
    .addArgument(new Argument("<kind>", "vm (the VM's VMI) or vmi").choices(["vm", "vmi"]))
    .argument("<name>", "the VirtualMachine or VirtualMachineInstance")
    .option("--dry-run", "let the server check the request without changing anything", false)
    .action(async (kind: "vm" | "vmi", name: string, flags: { dryRun: boolean }, command: Command) => {
      const api = deps.connect(connectionFlagsOf(command));
      try {
        await api.send(
          "PUT",
          subresourcePath(api.namespace, "virtualmachineinstances", name, verb),
          dryRunField(flags.dryRun),
        );
      } catch (error) {
        const vmiMissing = error instanceof ApiError && error.code === 404 && error.objectName === name;
        if (kind === "vm" && vmiMissing) throw await vmWithoutVmi(api, name, error);
        throw await explainFailure(api, error, {
          action: `cannot ${verb} VirtualMachineInstance ${name}`,
          resource: "virtualmachineinstances",
          name,
        });
      }
      deps.io.stdout.write(scheduledMessage("VMI", name, verb, flags.dryRun));
    });
}

/** A VM with no VMI is not running: say so, or that the VM itself does not exist. */
async function vmWithoutVmi(api: ApiClient, name: string, original: ApiError): Promise<CliError> {
  try {
    await api.send("GET", objectPath(api.namespace, "virtualmachines", name));
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return notFound(api, "virtualmachines", name, error);
    if (error instanceof CliError) return error;
    // Not allowed to read VMs, say: the VMI's own answer is all there is to go on.
    return notFound(api, "virtualmachineinstances", name, original);
  }
  return new CliError(`VM ${name} is not running (it has no VMI): start it with \`virtctl start ${name}\``, {
    cause: original,
  });
}
