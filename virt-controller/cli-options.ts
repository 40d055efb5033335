import {
  addLeaderElectedOptions,
  componentCommand,
  type LeaderElectedOptions,
  readLeaderElectedOptions,
} from "../runtime/index.js";

/** What virt-controller's flags say: only where things are (configuration is the KubeVirt CR's). */
export interface CliOptions extends LeaderElectedOptions {
  readonly namespace: string;
  readonly launcherImage: string;
  readonly importerImage: string;
}

/** Parses virt-controller's command line (`argv` without node and the script). */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  const program = componentCommand(
    "virt-controller",
    "kubevirt-ts virt-controller: VirtualMachines → VMIs → launcher pods",
  )
    .option(
      "--namespace <namespace>",
      "namespace of the KubeVirt CR, the leader Lease and the serving certificate's Secret",
      "kubevirt",
    )
    .option("--launcher-image <image>", "image of the virt-launcher pods", "virt-launcher")
    .option(
      "--importer-image <image>",
      "image of the DataVolume importer pods (CDI's cdi-importer)",
      "cdi-importer",
    );
  // virt-operator's Deployment passes --address $(POD_IP).
  addLeaderElectedOptions(program, { address: "0.0.0.0" }).parse([...argv], { from: "user" });
  const flags = program.opts<{ namespace: string; launcherImage: string; importerImage: string }>();
  return {
    ...readLeaderElectedOptions(program),
    namespace: flags.namespace,
    launcherImage: flags.launcherImage,
    importerImage: flags.importerImage,
  };
}
