// Running the host tools that make VM files (qemu-img, xorriso/genisoimage). They are looked up, never
// installed: virt-handler's pod may have no route out, and a node's packages are its admin's to choose
// (npm run setup-host, or the virt-handler image). A missing one is a HostToolMissingError.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { ProgramRunner, ProgramStartError, traceProgram } from "../../runtime/index.js";

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
  /** Written to the command's stdin (which is closed otherwise). */
  input?: string;
}

/** What the node's admin does about a missing tool (the node condition and VMI failures say it). */
export const HOST_TOOLS_FIX = "npm run setup-host, or the virt-handler image";

/**
 * None of `commands` (alternatives for one job) is installed: the node's fault, not the VMI's.
 * `reason` is the word VMI conditions and events carry.
 */
export class HostToolMissingError extends Error {
  override readonly name = "HostToolMissingError";
  readonly reason = "HostToolMissing";

  constructor(
    readonly commands: readonly string[],
    options?: ErrorOptions,
  ) {
    super(`${commands.join(" or ")} is not installed on this node: install it (${HOST_TOOLS_FIX})`, options);
  }
}

/**
 * Runs a command (no shell) and resolves with its stdout; rejects with a CommandError if it fails.
 * It is spawned by the process's ProgramRunner (a small helper: a fork of virt-handler itself
 * would copy its page tables for every program).
 */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions = {},
): Promise<string> {
  const commandLine = [command, ...args].join(" ");
  const ended = traceProgram(command, args);
  let result: Awaited<ReturnType<ProgramRunner["run"]>>;
  try {
    result = await ProgramRunner.shared().run(command, args, {
      ...(options.input === undefined ? {} : { input: options.input }),
      env: options.env ?? process.env, // the component's now, as a spawn of its own would take
    });
  } catch (error) {
    if (error instanceof ProgramStartError && error.code === "ENOENT")
      throw new HostToolMissingError([command], { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    throw new CommandError(`cannot run ${command}: ${message}`, commandLine, null, { cause: error });
  } finally {
    ended();
  }
  if (result.code === 0) return result.stdout.toString();
  const how = result.signal ? `was killed by ${result.signal}` : `exited with ${result.code}`;
  const detail = result.stderr.toString().trim().split("\n").slice(-5).join("\n");
  throw new CommandError(`${commandLine} ${how}${detail ? `: ${detail}` : ""}`, commandLine, result.code);
}

/** The executable file's path on PATH, or undefined (looked up without spawning a shell). */
export async function findExecutable(
  command: string,
  path = process.env.PATH ?? "",
): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate; // a directory is "executable" too
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
