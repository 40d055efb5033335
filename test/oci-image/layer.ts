// A layer blob from tar entries: the tar is hashed (its diff_id) and compressed in one pass, and
// the compressed bytes are hashed (the blob digest) as they are written, so that a big disk is
// read once and never held in memory unless the caller asks for an in-memory blob.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { Duplex, PassThrough, Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { LayerCompression } from "./media-types.js";
import { type TarEntry, TarWriteError, tarChunks } from "./tar-writer.js";

/** Where a blob's bytes are: in memory, or in a file (streamed when pushed). */
export type BlobContent = Buffer | { readonly path: string };

export interface Blob {
  readonly digest: string;
  readonly size: number;
  readonly content: BlobContent;
}

export interface Layer extends Blob {
  readonly compression: LayerCompression;
  /** sha256 of the uncompressed tar: what the config's rootfs.diff_ids lists. */
  readonly diffId: string;
  /** A media type to use instead of the one the manifest format gives (e.g. a nondistributable one). */
  readonly mediaType?: string;
}

export interface LayerOptions {
  readonly compression: LayerCompression;
  /** Write the blob to a file in this directory instead of memory: for big disks. */
  readonly blobDir?: string;
  readonly mediaType?: string;
}

export class LayerBuildError extends Error {
  override readonly name = "LayerBuildError";
  constructor(
    readonly reason: "CompressorFailed" | "WriteFailed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export async function layerFromEntries(entries: readonly TarEntry[], options: LayerOptions): Promise<Layer> {
  const tarHash = createHash("sha256");
  const blobHash = createHash("sha256");
  const compressor = startCompressor(options.compression);
  const sink = blobSink(options.blobDir);
  let size = 0;
  try {
    await pipeline(
      Readable.from(tarChunks(entries)),
      hashTap((chunk) => tarHash.update(chunk)),
      compressor.stream,
      hashTap((chunk) => {
        blobHash.update(chunk);
        size += chunk.length;
      }),
      sink.stream,
    );
    await compressor.finished;
  } catch (error) {
    if (error instanceof LayerBuildError || error instanceof TarWriteError) throw error;
    throw new LayerBuildError("WriteFailed", `cannot build a ${options.compression} layer`, { cause: error });
  }
  return {
    digest: `sha256:${blobHash.digest("hex")}`,
    size,
    content: sink.content(),
    compression: options.compression,
    diffId: `sha256:${tarHash.digest("hex")}`,
    ...(options.mediaType ? { mediaType: options.mediaType } : {}),
  };
}

function hashTap(onChunk: (chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onChunk(chunk);
      done(null, chunk);
    },
  });
}

interface Compressor {
  stream: Duplex;
  /** Resolves once the compressor is done; rejects when the zstd process failed. */
  finished: Promise<void>;
}

function startCompressor(compression: LayerCompression): Compressor {
  if (compression === "none") return { stream: new PassThrough(), finished: Promise.resolve() };
  if (compression === "gzip") return { stream: createGzip(), finished: Promise.resolve() };
  // Node 20 has no zstd: the zstd CLI (Debian package zstd) compresses through a pipe.
  const child = spawn("zstd", ["-q", "-c", "-3"], { stdio: ["pipe", "pipe", "pipe"] });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    child.once("error", (error) =>
      reject(
        new LayerBuildError("CompressorFailed", "cannot run zstd (Debian package zstd)", { cause: error }),
      ),
    );
    child.once("close", (code) => {
      if (code === 0) resolve();
      else {
        const output = Buffer.concat(stderr).toString("utf8").trim();
        reject(new LayerBuildError("CompressorFailed", `zstd exited with ${code}: ${output}`));
      }
    });
  });
  // Whoever awaits `finished` sees the failure; this keeps an early pipeline error from leaving it unhandled.
  finished.catch(() => {});
  return { stream: Duplex.from({ writable: child.stdin, readable: child.stdout }), finished };
}

interface BlobSink {
  stream: Writable;
  content(): BlobContent;
}

function blobSink(blobDir: string | undefined): BlobSink {
  if (blobDir !== undefined) {
    const path = join(blobDir, `layer-${randomBytes(6).toString("hex")}.blob`);
    return { stream: createWriteStream(path), content: () => ({ path }) };
  }
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, content: () => Buffer.concat(chunks) };
}
