/**
 * The flags `virtctl ssh` and `virtctl scp` share (KubeVirt's names, short forms and defaults),
 * and the options they make for the local client.
 */
import { isAbsolute, resolve } from "node:path";
import { type Command, Option } from "commander";
import { collect, port } from "../commands/flag-parsers.js";
import { CliError } from "../errors/cli-error.js";
import type { ConnectionFlags } from "../kubeconfig/load-kubeconfig.js";
import type { LocalClientOptions } from "./ssh-command-line.js";

export interface SshFlags {
  readonly username?: string;
  readonly identityFile?: string;
  readonly knownHosts?: string;
  readonly port: number;
  readonly localSshOpts?: string[];
  readonly localSsh: boolean;
}

/** KubeVirt's default user: $USER, $USERNAME or $LOGNAME, else none (ssh's own default). */
export function defaultUsername(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.USER || env.USERNAME || env.LOGNAME || undefined;
}

export function addSshFlags(command: Command): Command {
  return command
    .option(
      "-l, --username <user>",
      "the user to log in as (default: $USER, $USERNAME or $LOGNAME); user@ in the target wins",
    )
    .option(
      "-i, --identity-file <path>",
      "private key for authentication (default: ssh's own keys and agent)",
    )
    .option("--known-hosts <path>", "known_hosts file to use (default: ssh's own)")
    .option("-p, --port <port>", "the VM's SSH port", port, 22)
    .option(
      "-t, --local-ssh-opts <option>",
      'an option for the local ssh, repeatable, e.g. -t "-o StrictHostKeyChecking=no"',
      collect,
    )
    .addOption(
      new Option("--local-ssh", "use the local ssh client (always; KubeVirt's deprecated flag)").default(
        true,
      ),
    )
    .addOption(new Option("--no-local-ssh").hideHelp());
}

export function localClientOptionsOf(
  flags: SshFlags,
  targetUsername: string | undefined,
  connection: ConnectionFlags,
): LocalClientOptions {
  if (!flags.localSsh) {
    throw new CliError("virtctl has no built-in SSH client: it runs the local ssh; drop --local-ssh=false");
  }
  const username = targetUsername ?? flags.username ?? defaultUsername();
  return {
    port: flags.port,
    ...(username ? { username } : {}),
    ...(flags.identityFile ? { identityFile: flags.identityFile } : {}),
    ...(flags.knownHosts ? { knownHosts: flags.knownHosts } : {}),
    localOptions: flags.localSshOpts ?? [],
    virtctl: virtctlArgv(),
    globalFlags: globalFlagsOf(connection),
  };
}

/** This virtctl, as the ProxyCommand runs it again: node and the script (absolute). */
function virtctlArgv(): string[] {
  const script = process.argv[1];
  if (!script) return [process.execPath];
  return [process.execPath, isAbsolute(script) ? script : resolve(script)];
}

/** What chose the cluster, for the ProxyCommand's virtctl (the namespace is in its target). */
export function globalFlagsOf(connection: ConnectionFlags): string[] {
  return [
    ...(connection.kubeconfig ? [`--kubeconfig=${resolve(connection.kubeconfig)}`] : []),
    ...(connection.context ? [`--context=${connection.context}`] : []),
  ];
}
