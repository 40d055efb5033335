import { ProgramRunner } from "../../runtime/index.js";

const NETNS_DIR = "/run/netns";

/** An nft script that did not apply, with what nft said. */
export class NftCommandError extends Error {
  override readonly name = "NftCommandError";
  readonly stderr: string;

  constructor(where: string, stderr: string, cause: unknown) {
    super(`nft -f - in ${where} failed: ${stderr.trim() || String(cause)}`, { cause });
    this.stderr = stderr;
  }
}

/**
 * Runs `nft -f -` with `script` on standard input, in the named network namespace (one of
 * `ip netns`'s, under /run/netns) or, without one, in the node's own.
 */
export async function applyNftScript(script: string, netns?: string): Promise<void> {
  const [program, ...args] = netns
    ? ["nsenter", `--net=${NETNS_DIR}/${netns}`, "--", "nft", "-f", "-"]
    : ["nft", "-f", "-"];
  const where = netns ? `netns ${netns}` : "the node";
  // From the process's program runner: a fork of the dev cluster itself costs far more.
  const result = await ProgramRunner.shared()
    .run(program ?? "nft", args, { input: script, timeoutMs: 10_000, env: process.env })
    .catch((error: unknown) => {
      throw new NftCommandError(where, "", error);
    });
  if (result.code !== 0) {
    const why = result.timedOut ? "timed out after 10 s" : `exit ${result.signal ?? result.code}`;
    throw new NftCommandError(where, result.stderr.toString(), new Error(why));
  }
}
