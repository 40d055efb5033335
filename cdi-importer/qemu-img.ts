// qemu-img, given only files this process opened: each is passed as an inherited descriptor and named
// /dev/fd/N, so qemu-img resolves no path of ours or of the image's (a claim's directory is the user's,
// and a name there could be swapped for a link). The format is always stated (-f, -O): qemu-img never
// probes, and the qcow2 it converts was checked beforehand to name no other file.
import { spawn } from "node:child_process";
import type { FileHandle } from "node:fs/promises";
import { ImportError } from "./import-error.js";

export interface QemuImgConvert {
  readonly sourceFormat: "qcow2" | "raw";
  readonly source: FileHandle;
  /** A raw file of at least the virtual size, all zeros (new and truncated): written in place (-n). */
  readonly target: FileHandle;
}

/** `qemu-img convert -n --target-is-zero -f <format> -O raw` from one open file into another. */
export async function qemuImgConvert(request: QemuImgConvert): Promise<void> {
  // fd 3 is the source, fd 4 the target, in the child.
  await runQemuImg(
    ["convert", "-n", "--target-is-zero", "-f", request.sourceFormat, "-O", "raw", "/dev/fd/3", "/dev/fd/4"],
    [request.source.fd, request.target.fd],
  );
}

async function runQemuImg(args: string[], fds: number[]): Promise<void> {
  const child = spawn("qemu-img", args, { stdio: ["ignore", "ignore", "pipe", ...fds] });
  const stderr: Buffer[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  const { code, error } = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once("error", (failure) => resolve({ code: null, error: failure }));
    child.once("close", (exitCode) => resolve({ code: exitCode }));
  });
  if (error) throw new ImportError(`qemu-img cannot be run: ${error.message}`, { cause: error });
  if (code !== 0) {
    const why = Buffer.concat(stderr).toString().trim().split("\n").at(-1) ?? "";
    throw new ImportError(`qemu-img ${args[0]} failed: ${why || `exit status ${code}`}`);
  }
}
