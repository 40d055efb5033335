// A downloaded layer as a stream of tar bytes, by its media type: plain, gzip (node's zlib) or zstd (the
// zstd program, `zstd -dc`: node 20 has no zstd). Foreign and non-distributable layers are ordinary layers
// once downloaded.
import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { ToolMissingError } from "./oci-image-error.js";

export type LayerCompression = "none" | "gzip" | "zstd";

const COMPRESSION: Record<string, LayerCompression> = {
  "application/vnd.oci.image.layer.v1.tar": "none",
  "application/vnd.oci.image.layer.v1.tar+gzip": "gzip",
  "application/vnd.oci.image.layer.v1.tar+zstd": "zstd",
  "application/vnd.oci.image.layer.nondistributable.v1.tar": "none",
  "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip": "gzip",
  "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd": "zstd",
  "application/vnd.docker.image.rootfs.diff.tar": "none",
  "application/vnd.docker.image.rootfs.diff.tar.gzip": "gzip",
  "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip": "gzip",
};

export class LayerFormatError extends Error {
  override readonly name = "LayerFormatError";
}

export function layerCompression(mediaType: string): LayerCompression {
  const compression = COMPRESSION[mediaType];
  if (compression === undefined)
    throw new LayerFormatError(`the layer media type ${JSON.stringify(mediaType)} is not a tar layer`);
  return compression;
}

export interface TarByteStream {
  readonly stream: Readable;
  /** Resolves when the decompressor ended well; rejects with its failure. Always await it. */
  readonly finished: Promise<void>;
  /** Stops the decompressor (after a refusal). */
  destroy(): void;
}

function zstdStream(file: string): TarByteStream {
  const child = spawn("zstd", ["-dc", "--no-progress", "-q", file], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr = (stderr + text).slice(-1000);
  });
  const finished = new Promise<void>((resolve, reject) => {
    child.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        reject(new ToolMissingError(["zstd"], { cause: error }));
        return;
      }
      reject(
        new LayerFormatError(`cannot run zstd to decompress a zstd layer: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new LayerFormatError(`zstd failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
  const destroy = () => {
    // Unread output would keep the child's "close" from ever firing: drop it with the process.
    child.stdout.destroy();
    child.kill("SIGKILL");
  };
  return { stream: child.stdout, finished, destroy };
}

export function openLayer(file: string, compression: LayerCompression): TarByteStream {
  if (compression === "zstd") return zstdStream(file);
  const source = createReadStream(file);
  const stream = compression === "gzip" ? source.pipe(createGunzip()) : source;
  const finished = new Promise<void>((resolve, reject) => {
    const fail = (error: Error) =>
      reject(new LayerFormatError(`the layer cannot be read: ${error.message}`, { cause: error }));
    source.on("error", fail);
    stream.on("error", fail);
    stream.on("end", resolve);
    stream.on("close", resolve);
  });
  return {
    stream,
    finished,
    destroy: () => {
      source.destroy();
      stream.destroy();
    },
  };
}
