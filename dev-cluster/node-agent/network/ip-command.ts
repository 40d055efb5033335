import { ProgramRunner, traceProgram } from "../../../runtime/index.js";

/** An `ip` (iproute2) command that failed, with what it said. */
export class IpCommandError extends Error {
  override readonly name = "IpCommandError";
  readonly args: readonly string[];
  readonly stderr: string;

  constructor(args: readonly string[], stderr: string, cause: unknown) {
    super(`ip ${args.join(" ")} failed: ${stderr.trim() || String(cause)}`, { cause });
    this.args = args;
    this.stderr = stderr;
  }
}

/**
 * Runs `ip ...` and resolves with its standard output; `input` is written to its stdin. It is
 * spawned by the process's ProgramRunner: a fork of the dev cluster itself costs far more.
 */
export async function runIp(args: readonly string[], input?: string): Promise<string> {
  const ended = traceProgram("ip", args);
  const shown = input === undefined ? args : [...args, input];
  try {
    const result = await ProgramRunner.shared().run("ip", args, {
      timeoutMs: 10_000,
      env: process.env,
      ...(input === undefined ? {} : { input }),
    });
    if (result.code !== 0) {
      const why = result.timedOut ? "timed out after 10 s" : `exit ${result.signal ?? result.code}`;
      throw new IpCommandError(shown, result.stderr.toString(), new Error(why));
    }
    return result.stdout.toString();
  } catch (error) {
    if (error instanceof IpCommandError) throw error;
    throw new IpCommandError(shown, "", error);
  } finally {
    ended();
  }
}

/**
 * Runs several `ip` commands in one process (`ip -batch -`): one spawn, where each would cost its
 * own, and a pod start needs six. It stops at the first command that fails, naming it.
 */
export function runIpBatch(commands: readonly (readonly string[])[], options: { netns?: string } = {}) {
  const prefix = options.netns === undefined ? [] : ["-n", options.netns];
  return runIp([...prefix, "-batch", "-"], `${commands.map((command) => command.join(" ")).join("\n")}\n`);
}

/** Runs `ip -j ...` and parses its JSON answer (an empty answer is an empty list). */
export async function runIpJson(args: readonly string[]): Promise<unknown> {
  const output = await runIp(["-j", ...args]);
  if (output.trim() === "") return [];
  try {
    return JSON.parse(output) as unknown;
  } catch (error) {
    throw new Error(`ip -j ${args.join(" ")} did not answer JSON`, { cause: error });
  }
}

/** True when `ip` is installed and answers. */
export async function ipAvailable(): Promise<boolean> {
  try {
    await runIp(["-V"]);
    return true;
  } catch {
    return false;
  }
}
