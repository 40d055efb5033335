/** `virtctl create preference [--name] [--cpu-topology] [--volume-storage-class] [--machine-type] [--namespaced]`: prints the manifest. */
import { Command } from "commander";
import { manifestYaml } from "../create/manifest-yaml.js";
import { buildPreferenceManifest, type CreatePreferenceFlags } from "../create/preference-manifest.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

export function createPreferenceCommand(deps: CommandDeps): Command {
  return new Command("preference")
    .description(
      "Create a VirtualMachineClusterPreference manifest (a VirtualMachinePreference with --namespaced or -n)",
    )
    .option("--name <name>", "the name (default: a generated clusterpreference-xxxxx or preference-xxxxx)")
    .option(
      "--cpu-topology <topology>",
      "the preferred guest CPU topology: sockets, cores, threads or spread",
    )
    .option("--volume-storage-class <class>", "the preferred storage class of the VM's volumes")
    .option("--machine-type <type>", "the preferred machine type, e.g. q35")
    .option("--namespaced", "create a VirtualMachinePreference (default: VirtualMachineClusterPreference)")
    .action((flags: CreatePreferenceFlags, command: Command) => {
      const { namespace } = connectionFlagsOf(command);
      deps.io.stdout.write(manifestYaml(buildPreferenceManifest({ ...flags, namespace })));
    });
}
