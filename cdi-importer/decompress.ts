// Unwraps a gzip or xz stream on the fly, so a compressed image is never stored whole: gzip with Node's
// zlib (concatenated members included, as gunzip reads them), xz with the xz program reading its standard
// input and writing its standard output (it is given no path at all).
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { Compression } from "./image-format.js";
import { ImportError } from "./import-error.js";

export function decompress(input: AsyncIterable<Buffer>, compression: Compression): AsyncIterable<Buffer> {
  return compression === "gzip" ? gunzip(input) : unxz(input);
}

async function* gunzip(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const inflater = createGunzip();
  const feeding = pipeline(Readable.from(input), inflater).catch((error: Error) => {
    inflater.destroy(error);
  });
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (error) {
    throw new ImportError(`the gzip stream cannot be read: ${(error as Error).message}`, { cause: error });
  } finally {
    inflater.destroy();
    await feeding;
  }
}

async function* unxz(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const child = spawn("xz", ["--decompress", "--stdout", "--quiet", "--no-warn"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, error }));
    child.once("close", (code) => resolve({ code }));
  });
  let feedError: Error | undefined;
  // An EPIPE when xz stops reading early is reported through xz's own exit status.
  const feeding = pipeline(Readable.from(input), child.stdin).catch((error: Error) => {
    feedError = error;
  });
  let finished = false;
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
    await feeding;
    const { code, error } = await exited;
    if (error) throw new ImportError(`xz cannot be run: ${error.message}`, { cause: error });
    if (feedError && code === 0) throw feedError;
    if (code !== 0) {
      const why = Buffer.concat(stderr).toString().trim().split("\n").at(-1) ?? "";
      throw new ImportError(`the xz stream cannot be read: ${why || `xz exited with ${code}`}`);
    }
    finished = true;
  } finally {
    if (!finished) child.kill("SIGKILL");
    await feeding;
  }
}
