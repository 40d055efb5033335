/**
 * The container tool the image build drives: podman, run as a program (never through a shell),
 * with the output streamed to the user. Builds use the host's network (`--network=host`): RUN
 * steps reach Debian's mirrors and the npm registry directly, and nothing is NATed out of a
 * container network.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export class PodmanError extends Error {
  override readonly name = "PodmanError";
}

/** Runs podman; resolves with its stdout, rejects with the command and its stderr's last lines. */
export function podman(
  args: readonly string[],
  options: { input?: NodeJS.ReadableStream; quiet?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("podman", args, { stdio: [options.input ? "pipe" : "ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      if (!options.quiet) process.stdout.write(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr.push(chunk);
      if (!options.quiet) process.stderr.write(chunk);
    });
    if (options.input && child.stdin) options.input.pipe(child.stdin);
    child.on("error", (error) =>
      reject(
        new PodmanError(`cannot run podman (apt-get install -y podman buildah): ${error.message}`, {
          cause: error,
        }),
      ),
    );
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString("utf8"));
      else {
        const tail = Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(-5).join("\n");
        reject(new PodmanError(`podman ${args.slice(0, 2).join(" ")} failed (exit ${code}): ${tail}`));
      }
    });
  });
}

/** Whether an image of that name is in podman's local store. */
export async function imageExists(name: string): Promise<boolean> {
  try {
    await podman(["image", "exists", name], { quiet: true });
    return true;
  } catch (error) {
    if (error instanceof PodmanError && /exit 1\b/.test(error.message)) return false;
    throw error;
  }
}

/**
 * `--runtime runc` when runc is installed: crun, podman's default on Debian 12, refuses to run on
 * a host whose cgroups are in hybrid mode ("cgroups in hybrid mode not supported"), as here.
 */
export function runtimeArgs(): string[] {
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(directory, "runc"), constants.X_OK);
      return ["--runtime", "runc"];
    } catch {
      // Not in this directory.
    }
  }
  return [];
}
