import { execFile } from "node:child_process";

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

/** Runs `ip ...` and resolves with its standard output. */
export function runIp(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("ip", args, { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) reject(new IpCommandError(args, stderr, error));
      else resolve(stdout);
    });
  });
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
