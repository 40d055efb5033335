// Runs commands in a guest over SSH with a key (OpenSSH's client), for tests. Host keys are not checked:
// every test guest makes new ones at its first boot.
import { runCommand } from "../guest/run-command.js";

export interface SshTarget {
  port: number;
  user: string;
  /** The private key file. */
  identityFile: string;
  host?: string;
}

function sshArguments(target: SshTarget, command: string): string[] {
  return [
    ...["-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"],
    ...["-o", "ConnectTimeout=5", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"],
    ...["-i", target.identityFile, "-p", String(target.port), `${target.user}@${target.host ?? "127.0.0.1"}`],
    command,
  ];
}

/** Runs `command` (a shell command line) in the guest and resolves with its stdout. */
export async function sshRun(target: SshTarget, command: string): Promise<string> {
  return (await runCommand("ssh", sshArguments(target, command))).stdout;
}

/** Retries `sshRun` until it succeeds (the guest is still booting) or `timeoutMs` has passed. */
export async function waitForSsh(target: SshTarget, command: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await sshRun(target, command);
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`could not run "${command}" over ssh within ${timeoutMs} ms`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
