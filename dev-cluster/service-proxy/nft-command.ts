import { execFile } from "node:child_process";

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
export function applyNftScript(script: string, netns?: string): Promise<void> {
  const [program, ...args] = netns
    ? ["nsenter", `--net=${NETNS_DIR}/${netns}`, "--", "nft", "-f", "-"]
    : ["nft", "-f", "-"];
  return new Promise((resolve, reject) => {
    const child = execFile(program ?? "nft", args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error) reject(new NftCommandError(netns ? `netns ${netns}` : "the node", stderr, error));
      else resolve();
    });
    // nft (or nsenter, when the namespace went meanwhile) may exit before reading the script: the
    // failure is reported by the exit above, not by the pipe.
    child.stdin?.on("error", () => {});
    child.stdin?.end(script);
  });
}
