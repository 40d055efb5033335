// A lock between processes (parallel test files build the guest at the same time), held as a file that
// holds the owner's pid. A lock whose owner has died is taken over.
import { readFile, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function tryAcquire(path: string): Promise<boolean> {
  try {
    await writeFile(path, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
  // An empty file is being written by its owner right now: wait for it like for a live owner.
  if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) return false;
  await rm(path, { force: true });
  return false;
}

/** Runs `action` while holding the lock file `path`; waits up to `timeoutMs` for another holder. */
export async function withFileLock<T>(path: string, timeoutMs: number, action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (!(await tryAcquire(path))) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for the lock ${path}`);
    await sleep(100);
  }
  try {
    return await action();
  } finally {
    await rm(path, { force: true });
  }
}
