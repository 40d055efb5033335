/**
 * The targets of `virtctl ssh` (`[user@]type/name[/namespace]`) and `virtctl scp`
 * (`[user@]type/name[/namespace]:path` on one side, a local path on the other), with KubeVirt's
 * refusals and what to write instead.
 */
import { CliError } from "../errors/cli-error.js";
import { type ForwardTarget, parseForwardTarget } from "../portforward/forward-target.js";

export interface SshTarget {
  readonly target: ForwardTarget;
  /** From `user@`; absent when not given. */
  readonly username?: string;
}

export function parseSshTarget(argument: string): SshTarget {
  const parts = argument.split("@");
  if (parts.length > 1) {
    const [username = "", rest = ""] = parts;
    if (username === "") throw new CliError("expected username before '@': write user@vm/NAME");
    if (rest === "") throw new CliError("expected target after '@': write user@vm/NAME");
    return { target: parseForwardTarget(rest), username };
  }
  if (argument === "") throw new CliError("expected target after '@': write [user@]vm/NAME");
  return { target: parseForwardTarget(argument) };
}

export interface ScpLocations {
  readonly remote: SshTarget & { readonly path: string };
  readonly localPath: string;
  /** Copying to the VM (the destination is the remote one). */
  readonly toRemote: boolean;
}

export function parseScpLocations(source: string, destination: string): ScpLocations {
  const sourceRemote = source.includes(":");
  const destinationRemote = destination.includes(":");
  if (sourceRemote && destinationRemote) {
    throw new CliError(
      `copying from a remote location to another remote location is not supported: "${source}" to "${destination}"`,
    );
  }
  if (!sourceRemote && !destinationRemote) {
    throw new CliError(
      `none of the two provided locations seems to be a remote location: "${source}" to "${destination}"; write [user@]vm/NAME:PATH on one side`,
    );
  }
  const remote = destinationRemote ? destination : source;
  const colon = remote.indexOf(":");
  return {
    remote: { ...parseSshTarget(remote.slice(0, colon)), path: remote.slice(colon + 1) },
    localPath: destinationRemote ? source : destination,
    toRemote: destinationRemote,
  };
}
