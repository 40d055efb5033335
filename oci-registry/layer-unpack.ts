// Applying an image's layers, in order, to a directory that only this pull writes (the cache's temporary
// directory): later layers replace earlier entries, whiteouts (`.wh.<name>`, `.wh..wh..opq`) delete lower
// layers' entries. Only regular files, hard links between them and directories are made; nothing else is
// materialised, so no path under the root can lead outside it while unpacking or after. Refused, with the
// reason: names escaping the root (".." after normalisation, absolute names), hard links to outside,
// devices, FIFOs and unknown entry types under the directories the caller names strict (virt-handler's
// /disk, where the disk is), and more unpacked bytes than allowed, counted while writing.
import { createWriteStream } from "node:fs";
import { chmod, link, lstat, mkdir, readdir, rm } from "node:fs/promises";
import { join, posix } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { OciImageError } from "./oci-image-error.js";
import { describePathInImage } from "./path-text.js";
import type { TarEntry, TarItem } from "./tar-reader.js";

export interface UnpackOptions {
  readonly image: string;
  /** The directory the image's file system is built in. */
  readonly root: string;
  readonly maxUnpackedBytes: number;
  /**
   * Top-level directories ("disk") in which a device, FIFO or entry of unknown type is refused; elsewhere
   * such entries are left out. Default: none.
   */
  readonly strictDirectories?: readonly string[];
}

/** What the layers held besides files and directories, kept for the caller's checks of the tree. */
export interface UnpackedImage {
  /** Symbolic links, not materialised: "/disk/disk.img" → its target. */
  readonly symlinks: Map<string, string>;
  /** Bytes written so far (all layers). */
  writtenBytes: number;
}

const OPAQUE = ".wh..wh..opq";
const WHITEOUT_PREFIX = ".wh.";

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

export class LayerUnpacker {
  readonly #options: UnpackOptions;
  readonly state: UnpackedImage = { symlinks: new Map(), writtenBytes: 0 };
  #layer = 0;
  /** Paths (relative, "a/b") made by the layer being applied: whiteouts never delete them. */
  #layerPaths = new Set<string>();

  constructor(options: UnpackOptions) {
    this.#options = options;
  }

  #refuse(why: string, cause?: unknown): OciImageError {
    const { image } = this.#options;
    return new OciImageError(
      "InvalidImage",
      image,
      `${image}: layer ${this.#layer}: ${why}`,
      cause === undefined ? undefined : { cause },
    );
  }

  /** The components of an entry's name under the root ([] for the root itself), or a refusal. */
  #components(raw: string, what: string): string[] {
    if (raw.includes("\0")) throw this.#refuse(`${what} ${describePathInImage(raw)} contains a NUL byte`);
    const normal = posix.normalize(raw);
    if (normal.startsWith("/")) throw this.#refuse(`${what} ${describePathInImage(raw)} is an absolute path`);
    if (normal === ".." || normal.startsWith("../")) {
      throw this.#refuse(`${what} ${describePathInImage(raw)} leaves the image's root`);
    }
    const trimmed = normal.replace(/\/+$/, "");
    return trimmed === "." || trimmed === "" ? [] : trimmed.split("/");
  }

  async apply(items: AsyncIterable<TarItem>): Promise<void> {
    this.#layer++;
    this.#layerPaths = new Set();
    for await (const { entry, content } of items) {
      await this.#applyEntry(entry, content);
    }
  }

  async #applyEntry(entry: TarEntry, content: AsyncIterable<Buffer>): Promise<void> {
    const components = this.#components(entry.path, "the entry");
    const name = components.at(-1);
    if (name === undefined) return;
    const relative = components.join("/");
    const strictDirectory =
      components.length > 1 && this.#options.strictDirectories?.includes(components[0] ?? "")
        ? components[0]
        : undefined;
    if (name.startsWith(WHITEOUT_PREFIX)) {
      await this.#ensureDirectories(components.slice(0, -1));
      if (name === OPAQUE) await this.#opaque(components.slice(0, -1));
      else if (!name.startsWith(`${WHITEOUT_PREFIX}${WHITEOUT_PREFIX}`)) {
        await this.#whiteout([...components.slice(0, -1), name.slice(WHITEOUT_PREFIX.length)]);
      }
      return;
    }
    await this.#ensureDirectories(components.slice(0, -1));
    this.#layerPaths.add(relative);
    const path = join(this.#options.root, ...components);
    switch (entry.type) {
      case "directory":
        return this.#directory(path, relative);
      case "file":
        await this.#remove(path, relative);
        return this.#file(path, entry, content);
      case "hardlink":
        return this.#hardlink(path, relative, entry);
      case "symlink":
        await this.#remove(path, relative);
        this.state.symlinks.set(`/${relative}`, entry.linkPath);
        return;
      default: {
        const kind =
          entry.type === "other"
            ? `an entry of unsupported type ${JSON.stringify(entry.typeFlag)}`
            : `a ${entry.type}`;
        if (strictDirectory !== undefined) {
          throw this.#refuse(`/${relative} is ${kind}; only a regular file may be in /${strictDirectory}`);
        }
        // Elsewhere such entries are not needed by a VM: they are left out, and hide what lower layers had.
        await this.#remove(path, relative);
      }
    }
  }

  async #ensureDirectories(components: readonly string[]): Promise<void> {
    let current = this.#options.root;
    for (const [index, component] of components.entries()) {
      current = join(current, component);
      const relative = components.slice(0, index + 1).join("/");
      const stats = await lstat(current).catch((error: unknown) => {
        if (errorCode(error) === "ENOENT") return undefined;
        throw this.#refuse(`cannot look at /${relative}`, error);
      });
      if (stats?.isDirectory()) continue;
      if (stats !== undefined) await rm(current, { force: true });
      this.state.symlinks.delete(`/${relative}`);
      await this.#mkdir(current, relative);
    }
  }

  async #mkdir(path: string, relative: string): Promise<void> {
    try {
      await mkdir(path, { mode: 0o755 });
    } catch (error) {
      throw this.#refuse(`cannot make the directory ${describePathInImage(`/${relative}`)}`, error);
    }
  }

  /** Removes what lower layers had at `relative` (and under it), symbolic links included. */
  async #remove(path: string, relative: string): Promise<void> {
    await rm(path, { recursive: true, force: true });
    for (const link of this.state.symlinks.keys()) {
      if (link === `/${relative}` || link.startsWith(`/${relative}/`)) this.state.symlinks.delete(link);
    }
  }

  async #directory(path: string, relative: string): Promise<void> {
    const stats = await lstat(path).catch(() => undefined);
    if (stats?.isDirectory()) return;
    await this.#remove(path, relative);
    await this.#mkdir(path, relative);
  }

  async #file(path: string, entry: TarEntry, content: AsyncIterable<Buffer>): Promise<void> {
    const { maxUnpackedBytes } = this.#options;
    const tooLarge = () =>
      this.#refuse(
        `the image unpacks to more than ${maxUnpackedBytes} bytes (at ${describePathInImage(`/${entry.path}`)})`,
      );
    if (this.state.writtenBytes + entry.size > maxUnpackedBytes) throw tooLarge();
    const state = this.state;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        state.writtenBytes += chunk.length;
        done(state.writtenBytes > maxUnpackedBytes ? tooLarge() : null, chunk);
      },
    });
    try {
      await pipeline(content, count, createWriteStream(path, { flags: "wx", mode: 0o644 }));
    } catch (error) {
      if (error instanceof OciImageError) throw error;
      throw this.#refuse(`cannot write ${describePathInImage(`/${entry.path}`)}`, error);
    }
  }

  async #hardlink(path: string, relative: string, entry: TarEntry): Promise<void> {
    const target = this.#components(entry.linkPath, `the hard link /${relative} to`);
    const targetPath = join(this.#options.root, ...target);
    const stats = await lstat(targetPath).catch(() => undefined);
    if (!stats?.isFile()) {
      throw this.#refuse(
        `the hard link /${relative} names ${describePathInImage(`/${target.join("/")}`)}, which is not a file of the image`,
      );
    }
    await this.#remove(path, relative);
    await link(targetPath, path);
  }

  async #whiteout(components: readonly string[]): Promise<void> {
    const relative = components.join("/");
    if (this.#layerPaths.has(relative)) return;
    await this.#remove(join(this.#options.root, ...components), relative);
  }

  /**
   * `.wh..wh..opq`: the directory keeps only what this layer puts in it, whether the layer's entries came
   * before the marker or come after it (those are not there yet, so nothing of theirs is removed).
   */
  async #opaque(directory: readonly string[]): Promise<void> {
    const prefix = directory.length === 0 ? "" : `${directory.join("/")}/`;
    await this.#keepOnlyLayerPaths(join(this.#options.root, ...directory), prefix);
    for (const link of [...this.state.symlinks.keys()]) {
      const relative = link.slice(1);
      if (relative.startsWith(prefix) && !this.#layerPaths.has(relative)) this.state.symlinks.delete(link);
    }
  }

  async #keepOnlyLayerPaths(path: string, prefix: string): Promise<void> {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const relative = `${prefix}${entry.name}`;
      const made = this.#layerPaths.has(relative);
      const holdsLayerPaths = [...this.#layerPaths].some((layerPath) => layerPath.startsWith(`${relative}/`));
      if (!made && !holdsLayerPaths) await this.#remove(join(path, entry.name), relative);
      else if (entry.isDirectory()) await this.#keepOnlyLayerPaths(join(path, entry.name), `${relative}/`);
    }
  }
}

/** Makes the tree read-only (files 0444, directories 0555) and returns its size (each inode once). */
export async function sealTree(root: string): Promise<number> {
  const seen = new Set<string>();
  let size = 0;
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      const stats = await lstat(path);
      await chmod(path, 0o444);
      const key = `${stats.dev}:${stats.ino}`;
      if (!seen.has(key)) size += stats.size;
      seen.add(key);
    }
    await chmod(directory, 0o555);
  };
  await walk(root);
  return size;
}
