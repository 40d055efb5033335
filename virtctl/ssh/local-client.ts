/**
 * Runs the system's ssh or scp on this terminal (stdio inherited), as KubeVirt's virtctl does
 * since its own client was retired; resolves with its exit status. A missing binary is one line
 * that says what to install.
 */
import { spawn } from "node:child_process";
import { CliError, oneLine } from "../errors/cli-error.js";

export function runLocalClient(program: "ssh" | "scp", args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args], { stdio: "inherit" });
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(
          new CliError(
            `${program} is not installed (no ${program} on PATH): install OpenSSH's client (Debian: apt-get install openssh-client)`,
            { cause: error },
          ),
        );
        return;
      }
      reject(new CliError(`cannot run ${program}: ${oneLine(error)}`, { cause: error }));
    });
    // ssh's own status (255 for its failures, else the remote command's) is virtctl's.
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
