import { spawn } from "node:child_process";

/** A command that could not be started or exited unsuccessfully. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "CommandError";
  }
}

export interface CommandResult {
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is closed afterwards. */
  input?: string | Buffer;
}

/** Runs a command (no shell) and resolves with its output; rejects with a CommandError if it fails. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CommandResult> {
  const commandLine = [command, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      reject(
        new CommandError(`cannot run ${command}: ${error.message}`, commandLine, null, "", { cause: error }),
      );
    });
    child.on("close", (code, signal) => {
      const result = { stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
      if (code === 0) return resolve(result);
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      const detail = result.stderr.trim().split("\n").slice(-5).join("\n");
      reject(
        new CommandError(
          `${commandLine} ${how}${detail ? `: ${detail}` : ""}`,
          commandLine,
          code,
          result.stderr,
        ),
      );
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Whether an executable is on the PATH (the way a shell would find it). */
export async function commandExists(command: string): Promise<boolean> {
  try {
    await runCommand("sh", ["-c", 'command -v "$1" >/dev/null', "sh", command]);
    return true;
  } catch {
    return false;
  }
}
