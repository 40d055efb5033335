// qemu-img, the reference maker of qcow2 images, run directly: the tests check our reader against what it
// writes (the library itself never runs it).
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** `qemu-img create -q -f qcow2 ...args`. */
export async function createQcow2(...args: string[]): Promise<void> {
  await run("qemu-img", ["create", "-q", "-f", "qcow2", ...args]);
}
