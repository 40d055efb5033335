// The node's cache of pulled images, keyed by image manifest digest:
//
//   <cache>/images/sha256-<hex>/rootfs/...    the unpacked file system (files 0444, directories 0555)
//   <cache>/images/sha256-<hex>/image.json    CachedImageRecord, with the caller's facts about the image
//   <cache>/tmp/<random>/                     pulls in progress
//
// A pull builds everything under tmp/ and renames the finished directory into images/, so a crash never
// leaves a half-written image where a reader looks; tmp/ is emptied when the cache starts. Removing an
// image never breaks a user of its files who hard-linked them (virt-handler pins a VM's files so).
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** What every record holds; the caller's facts (RegistryPuller's `inspect`) sit beside these fields. */
export interface BaseImageRecord {
  /** The reference it was last resolved as, in one spelling. */
  reference: string;
  /** Every reference (tag) it was resolved as: IfNotPresent finds tags here. */
  references: string[];
  /** The image manifest's digest. */
  digest: string;
  /** The digests it was reached through (index, manifest). */
  digests: string[];
  /** Symbolic links the layers had, left out of rootfs. */
  symlinks: Record<string, string>;
  /** Bytes of rootfs. */
  size: number;
  /** ISO 8601. */
  lastUsed: string;
}

/** A record with the facts `Facts` the caller found in the unpacked image (trusted as written). */
export type CachedImageRecord<Facts extends object = NoFacts> = BaseImageRecord & Facts;
export type NoFacts = Record<never, never>;

const RECORD = "image.json";

function isRecord<Facts extends object>(value: unknown): value is CachedImageRecord<Facts> {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Partial<BaseImageRecord>;
  return (
    typeof record.digest === "string" &&
    /^sha256:[a-f0-9]{64}$/.test(record.digest) &&
    Array.isArray(record.references) &&
    Array.isArray(record.digests) &&
    typeof record.size === "number" &&
    typeof record.lastUsed === "string" &&
    typeof record.symlinks === "object"
  );
}

export class ImageCache<Facts extends object = NoFacts> {
  readonly #directory: string;
  #started: Promise<void> | undefined;
  /** The last use recorded, in ms: two uses in one millisecond must still be ordered. */
  #lastUseMs = 0;

  constructor(directory: string) {
    this.#directory = directory;
  }

  get #images(): string {
    return join(this.#directory, "images");
  }

  get #tmp(): string {
    return join(this.#directory, "tmp");
  }

  imageDirectory(digest: string): string {
    return join(this.#images, digest.replace(":", "-"));
  }

  rootOf(digest: string): string {
    return join(this.imageDirectory(digest), "rootfs");
  }

  /** Empties tmp/ (pulls a crash left unfinished) once, before first use. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await rm(this.#tmp, { recursive: true, force: true });
      await mkdir(this.#tmp, { recursive: true });
      await mkdir(this.#images, { recursive: true });
    })();
    return this.#started;
  }

  async #read(name: string): Promise<CachedImageRecord<Facts> | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.#images, name, RECORD), "utf8"));
      return isRecord<Facts>(parsed) && this.imageDirectory(parsed.digest) === join(this.#images, name)
        ? parsed
        : undefined;
    } catch {
      return undefined;
    }
  }

  async list(): Promise<CachedImageRecord<Facts>[]> {
    await this.start();
    const records = await Promise.all((await readdir(this.#images)).map((name) => this.#read(name)));
    return records.filter((record) => record !== undefined);
  }

  async byDigest(digest: string): Promise<CachedImageRecord<Facts> | undefined> {
    const direct = await this.#read(digest.replace(":", "-"));
    if (direct !== undefined) return direct;
    return (await this.list()).find((record) => record.digests.includes(digest));
  }

  async byReference(reference: string): Promise<CachedImageRecord<Facts> | undefined> {
    const matching = (await this.list()).filter((record) => record.references.includes(reference));
    return matching.sort((a, b) => b.lastUsed.localeCompare(a.lastUsed))[0];
  }

  /** A new empty directory under tmp/ for one pull. */
  async makeTemporary(): Promise<string> {
    await this.start();
    const path = join(this.#tmp, randomBytes(8).toString("hex"));
    await mkdir(path);
    return path;
  }

  /** Moves a finished pull (`temporary`, holding rootfs/) into place with its record. */
  async publish(temporary: string, record: CachedImageRecord<Facts>): Promise<void> {
    await writeFile(join(temporary, RECORD), `${JSON.stringify(record, null, 2)}\n`);
    const target = this.imageDirectory(record.digest);
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(temporary, target);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== "ENOTEMPTY" && code !== "EEXIST") || attempt > 0) throw error;
      }
      if (await this.#read(record.digest.replace(":", "-"))) {
        // Another process published the same digest first: its copy is as good as this one.
        await this.discard(temporary);
        return;
      }
      // A directory without a valid record was never published by this cache: it is not an image.
      await this.discard(target);
    }
  }

  /**
   * Now, or just after the previous use this cache recorded: eviction goes by this order, and uses
   * in the same millisecond would otherwise tie (and the image just used could be the one evicted).
   */
  #nextUseTime(): string {
    this.#lastUseMs = Math.max(Date.now(), this.#lastUseMs + 1);
    return new Date(this.#lastUseMs).toISOString();
  }

  /** Records a use (and the reference it was used as), replacing image.json atomically. */
  async touch(
    record: CachedImageRecord<Facts>,
    reference: string,
    digests: readonly string[] = [],
  ): Promise<CachedImageRecord<Facts>> {
    const updated: CachedImageRecord<Facts> = {
      ...record,
      reference,
      references: [...new Set([...record.references, reference])],
      digests: [...new Set([...record.digests, ...digests])],
      lastUsed: this.#nextUseTime(),
    };
    const file = join(this.imageDirectory(record.digest), RECORD);
    const temporary = `${file}.${randomBytes(4).toString("hex")}`;
    await writeFile(temporary, `${JSON.stringify(updated, null, 2)}\n`);
    await rename(temporary, file);
    return updated;
  }

  /** A reference now names another image: older records stop answering for it. */
  async forgetReference(reference: string, except: string): Promise<void> {
    for (const record of await this.list()) {
      if (record.digest === except || !record.references.includes(reference)) continue;
      const references = record.references.filter((other) => other !== reference);
      const file = join(this.imageDirectory(record.digest), RECORD);
      const temporary = `${file}.${randomBytes(4).toString("hex")}`;
      await writeFile(temporary, `${JSON.stringify({ ...record, references }, null, 2)}\n`);
      await rename(temporary, file);
    }
  }

  /** Removes a directory of the cache: first out of sight (renamed under tmp/), then from the disk. */
  async discard(path: string): Promise<void> {
    const away = join(this.#tmp, `removing-${randomBytes(8).toString("hex")}`);
    await rename(path, away).catch(() => undefined);
    await rm(away, { recursive: true, force: true });
    await rm(path, { recursive: true, force: true });
  }

  /**
   * While the cache holds more than `maxBytes`, removes the least recently used image other than `keep`;
   * returns the digests removed.
   */
  async collect(maxBytes: number, keep: string): Promise<string[]> {
    const records = (await this.list()).sort((a, b) => a.lastUsed.localeCompare(b.lastUsed));
    let total = records.reduce((sum, record) => sum + record.size, 0);
    const removed: string[] = [];
    for (const record of records) {
      if (total <= maxBytes) break;
      if (record.digest === keep) continue;
      await this.discard(this.imageDirectory(record.digest));
      total -= record.size;
      removed.push(record.digest);
    }
    return removed;
  }
}
