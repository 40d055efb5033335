/** `virtctl create instancetype --cpu N --memory SIZE [--name] [--iothreadspolicy] [--namespaced]`: prints the manifest. */
import { Command } from "commander";
import { buildInstancetypeManifest, type CreateInstancetypeFlags } from "../create/instancetype-manifest.js";
import { manifestYaml } from "../create/manifest-yaml.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

export function createInstancetypeCommand(deps: CommandDeps): Command {
  return new Command("instancetype")
    .description(
      "Create a VirtualMachineClusterInstancetype manifest (a VirtualMachineInstancetype with --namespaced or -n)",
    )
    .option(
      "--name <name>",
      "the name (default: a generated clusterinstancetype-xxxxx or instancetype-xxxxx)",
    )
    .option("--cpu <count>", "vCPUs of the instancetype (required)")
    .option("--memory <size>", "guest memory of the instancetype, e.g. 2Gi (required)")
    .option("--iothreadspolicy <policy>", 'the IOThreadsPolicy: "auto" or "shared"')
    .option(
      "--namespaced",
      "create a VirtualMachineInstancetype (default: VirtualMachineClusterInstancetype)",
    )
    .action((flags: CreateInstancetypeFlags, command: Command) => {
      const { namespace } = connectionFlagsOf(command);
      deps.io.stdout.write(manifestYaml(buildInstancetypeManifest({ ...flags, namespace })));
    });
}
