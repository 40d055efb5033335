// Running the host tools that make VM files (qemu-img, xorriso/genisoimage), and installing a missing
// one from Debian's archive the way the test-guest builder does (CI machines start bare).
import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** A command that could not be started or exited unsuccessfully; `stderr`'s last lines are in the message. */
export class CommandError extends Error {
  override readonly name = "CommandError";

  constructor(
    message: string,
    readonly commandLine: string,
    readonly exitCode: number | null,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
}

/** Runs a command (no shell) and resolves with its stdout; rejects with a CommandError if it fails. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<string> {
  const commandLine = [command, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      reject(
        new CommandError(`cannot run ${command}: ${error.message}`, commandLine, null, { cause: error }),
      );
    });
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString());
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      const detail = Buffer.concat(stderr).toString().trim().split("\n").slice(-5).join("\n");
      reject(new CommandError(`${commandLine} ${how}${detail ? `: ${detail}` : ""}`, commandLine, code));
    });
  });
}

/** The executable's path on PATH, or undefined (looked up without spawning a shell). */
export async function findExecutable(
  command: string,
  path = process.env.PATH ?? "",
): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
// Wait for another apt or dpkg run (a parallel test, the host set-up) instead of failing on its lock.
const APT_LOCK_WAIT = ["-o", "DPkg::Lock::Timeout=120"];

/** Installs a Debian package (as root only); refreshes the package lists once if the install fails. */
export async function installDebianPackage(packageName: string): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `the Debian package ${packageName} is missing; install it as root (apt-get install ${packageName})`,
    );
  }
  const install = () =>
    runCommand(
      "apt-get",
      ["install", "-y", "-qq", "--no-install-recommends", ...APT_LOCK_WAIT, packageName],
      {
        env: APT_ENV,
      },
    );
  try {
    await install();
  } catch {
    await runCommand("apt-get", ["update", "-qq", ...APT_LOCK_WAIT], { env: APT_ENV });
    await install();
  }
}
