/** `virtctl create vm|instancetype|preference [flags]`: prints a manifest (YAML) built from the flags; talks to no server. */
import { Command } from "commander";
import { manifestYaml } from "../create/manifest-yaml.js";
import { buildVmManifest, CREATE_VM_DEFAULTS, type CreateVmFlags } from "../create/vm-manifest.js";
import type { CommandDeps } from "./command-deps.js";
import { createInstancetypeCommand } from "./create-instancetype.js";
import { createPreferenceCommand } from "./create-preference.js";
import { collect, nonNegativeInteger } from "./flag-parsers.js";

export function createCommand(deps: CommandDeps): Command {
  return new Command("create")
    .description("Create a manifest for a KubeVirt object")
    .addCommand(createVm(deps))
    .addCommand(createInstancetypeCommand(deps))
    .addCommand(createPreferenceCommand(deps));
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
    .option("--memory <size>", "guest memory, e.g. 1Gi (not with an instancetype)", CREATE_VM_DEFAULTS.memory)
    .option(
      "--instancetype <[kind/]name>",
      "the instancetype, e.g. u1.medium (cluster) or virtualmachineinstancetype/my-it (namespaced)",
    )
    .option(
      "--infer-instancetype [volume]",
      "infer the instancetype from the boot volume (or the volume named); =false: do not (default: when possible)",
    )
    .option("--infer-instancetype-from <volume>", "the volume to infer the instancetype from")
    .option(
      "--preference <[kind/]name>",
      "the preference, e.g. fedora (cluster) or virtualmachinepreference/my-pref (namespaced)",
    )
    .option(
      "--infer-preference [volume]",
      "infer the preference from the boot volume (or the volume named); =false: do not (default: when possible)",
    )
    .option("--infer-preference-from <volume>", "the volume to infer the preference from")
    .option(
      "--volume-containerdisk <params>",
      "a containerDisk volume: src:IMAGE[,name:NAME][,bootorder:N] (repeatable)",
      collect,
      [],
    )
    .option(
      "--volume-pvc <params>",
      "a PVC volume: src:CLAIM[,name:NAME][,bootorder:N] (repeatable)",
      collect,
      [],
    )
    .option("--cloud-init-user-data <base64>", "cloud-init user data, base64-encoded (a NoCloud volume)")
    .option("--cloud-init-network-data <base64>", "cloud-init network data, base64-encoded")
    .action((flags: CreateVmFlags, command: Command) => {
      const manifest = buildVmManifest({ ...flags, given: givenFlags(command) });
      deps.io.stdout.write(manifestYaml(manifest));
    });
}

/** The long names of the flags on the command line, not defaulted: what KubeVirt's `Changed` tells. */
export function givenFlags(command: Command): Set<string> {
  const given = new Set<string>();
  for (const option of command.options) {
    if (option.long && command.getOptionValueSource(option.attributeName()) === "cli")
      given.add(option.long.replace(/^--/, ""));
  }
  return given;
}
