/** `virtctl create vm [flags]`: prints a VirtualMachine manifest (YAML) built from the flags; talks to no server. */
import { Command } from "commander";
import { stringify } from "yaml";
import { buildVmManifest, CREATE_VM_DEFAULTS, type CreateVmFlags } from "../create/vm-manifest.js";
import type { CommandDeps } from "./command-deps.js";
import { collect, nonNegativeInteger } from "./flag-parsers.js";

export function createCommand(deps: CommandDeps): Command {
  return new Command("create")
    .description("Create a manifest for a KubeVirt object")
    .addCommand(createVm(deps));
}

function createVm(deps: CommandDeps): Command {
  return new Command("vm")
    .description(
      "Create a VirtualMachine manifest (apply it with: virtctl create vm ... | kubectl apply -f -)",
    )
    .option("--name <name>", "the VM's name (default: a generated vm-xxxxx)")
    .option(
      "--run-strategy <strategy>",
      "Always, RerunOnFailure, Manual, Halted or Once",
      CREATE_VM_DEFAULTS.runStrategy,
    )
    .option(
      "--termination-grace-period <seconds>",
      "seconds the guest gets to shut down",
      nonNegativeInteger,
      CREATE_VM_DEFAULTS.terminationGracePeriod,
    )
    .option("--memory <size>", "guest memory, e.g. 1Gi", CREATE_VM_DEFAULTS.memory)
    .option(
      "--volume-containerdisk <params>",
      "a containerDisk volume: src:IMAGE[,name:NAME][,bootorder:N] (repeatable)",
      collect,
      [],
    )
    .option("--cloud-init-user-data <base64>", "cloud-init user data, base64-encoded (a NoCloud volume)")
    .option("--cloud-init-network-data <base64>", "cloud-init network data, base64-encoded")
    .action((flags: CreateVmFlags) => {
      const manifest = buildVmManifest(flags);
      // Sorted keys and unindented lists: the layout of KubeVirt's (Go) output.
      deps.io.stdout.write(stringify(manifest, { sortMapEntries: true, indentSeq: false }));
    });
}
