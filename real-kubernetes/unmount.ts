/**
 * The kubelet's volume mounts (tmpfs for secrets and tokens, bind mounts) outlive it: once its
 * containers are gone, whatever is still mounted at or below its root is unmounted, deepest first.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Mount points at or below `dir`, from /proc/self/mountinfo (octal escapes decoded), deepest
 * first: the kubelet also bind-mounts its root onto itself (to make it shared).
 */
export function mountPointsBelow(mountinfo: string, dir: string): string[] {
  const top = dir.replace(/\/+$/, "");
  const prefix = `${top}/`;
  return mountinfo
    .split("\n")
    .map((line) => line.split(" ")[4])
    .filter((point): point is string => point !== undefined)
    .map((point) =>
      point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))),
    )
    .filter((point) => point === top || point.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
}

export async function unmountBelow(dir: string): Promise<void> {
  const points = mountPointsBelow(await readFile("/proc/self/mountinfo", "utf8"), dir);
  for (const point of points) await run("umount", ["--lazy", point]).catch(() => {});
}
