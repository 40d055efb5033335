/**
 * The local ssh and scp command lines virtctl runs, as KubeVirt's virtctl builds them: the
 * ProxyCommand is virtctl itself (`port-forward --stdio=true kind/name/namespace PORT`, with the
 * global flags that chose the cluster), the host is `[user@]kind.name.namespace`, so known_hosts
 * entries name the VM. ssh runs the ProxyCommand through the shell, so each word is quoted.
 */
import type { ForwardTarget } from "../portforward/forward-target.js";

export interface LocalClientOptions {
  readonly port: number;
  readonly username?: string;
  /** Passed as `-i` only when the user gave one (ssh's own defaults and agent otherwise). */
  readonly identityFile?: string;
  /** Passed as `-o UserKnownHostsFile=` only when the user gave one. */
  readonly knownHosts?: string;
  /** `-t/--local-ssh-opts`, each one argument, in order. */
  readonly localOptions: readonly string[];
  /** How to run virtctl again: its interpreter and script (or its binary). */
  readonly virtctl: readonly string[];
  /** Global flags for that virtctl (`--kubeconfig=...`, `--context=...`). */
  readonly globalFlags: readonly string[];
}

export interface QualifiedTarget extends ForwardTarget {
  readonly namespace: string;
}

export function proxyCommandOption(target: QualifiedTarget, options: LocalClientOptions): string {
  const words = [
    ...options.virtctl,
    ...options.globalFlags,
    "port-forward",
    "--stdio=true",
    `${target.kind}/${target.name}/${target.namespace}`,
    String(options.port),
  ];
  return `ProxyCommand=${words.map(shellWord).join(" ")}`;
}

export function sshHost(target: QualifiedTarget, username: string | undefined): string {
  return `${username ? `${username}@` : ""}${target.kind}.${target.name}.${target.namespace}`;
}

/** `ssh`'s arguments: the options, then the host, then the command when there is one. */
export function sshArguments(
  target: QualifiedTarget,
  options: LocalClientOptions,
  command?: string,
): string[] {
  return [
    ...commonOptions(target, options),
    sshHost(target, options.username),
    ...(command ? [command] : []),
  ];
}

export interface ScpCopy {
  readonly localPath: string;
  readonly remotePath: string;
  readonly toRemote: boolean;
  readonly recursive: boolean;
  readonly preserve: boolean;
}

/** `scp`'s arguments: the options, -r / -p, then source and destination. */
export function scpArguments(target: QualifiedTarget, options: LocalClientOptions, copy: ScpCopy): string[] {
  const remote = `${sshHost(target, options.username)}:${copy.remotePath}`;
  return [
    ...commonOptions(target, options),
    ...(copy.recursive ? ["-r"] : []),
    ...(copy.preserve ? ["-p"] : []),
    ...(copy.toRemote ? [copy.localPath, remote] : [remote, copy.localPath]),
  ];
}

function commonOptions(target: QualifiedTarget, options: LocalClientOptions): string[] {
  return [
    "-o",
    proxyCommandOption(target, options),
    ...(options.knownHosts ? ["-o", `UserKnownHostsFile=${options.knownHosts}`] : []),
    ...options.localOptions,
    ...(options.identityFile ? ["-i", options.identityFile] : []),
  ];
}

/** A word for `sh -c`: as is when it holds nothing the shell reads, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
