/** What every command gets from main.ts: a way to reach the cluster, and the process's streams. */
import type { Command } from "commander";
import type { ApiClient } from "../api/api-client.js";
import type { ConnectionFlags } from "../kubeconfig/load-kubeconfig.js";

export interface CommandIo {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

export interface CommandDeps {
  /** Reads the kubeconfig (as the global flags say) and returns a client for its cluster. */
  readonly connect: (flags: ConnectionFlags) => ApiClient;
  readonly io: CommandIo;
}

/** The global flags (`--kubeconfig`, `--context`, `-n`) as seen from a subcommand. */
export function connectionFlagsOf(command: Command): ConnectionFlags {
  const flags = command.optsWithGlobals<ConnectionFlags>();
  return { kubeconfig: flags.kubeconfig, context: flags.context, namespace: flags.namespace };
}
