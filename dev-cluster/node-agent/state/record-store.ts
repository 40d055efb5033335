import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { type PodRecord, parsePodRecord } from "./pod-record.js";

const recordFile = "agent-state.json";

/**
 * Pod records on disk, one file per pod in the pod's kubelet-style directory. Writes are
 * synchronous and atomic (write, then rename): a record is saved right after a process starts,
 * so a kill -9 a moment later still finds it.
 */
export class RecordStore {
  readonly podsDir: string;
  readonly #log: Logger;

  constructor(podsDir: string, log: Logger) {
    this.podsDir = podsDir;
    this.#log = log;
    mkdirSync(podsDir, { recursive: true });
  }

  podDir(uid: string): string {
    return join(this.podsDir, uid);
  }

  save(record: PodRecord): void {
    const dir = this.podDir(record.uid);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, recordFile);
    writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 1)}\n`);
    renameSync(`${path}.tmp`, path);
  }

  /** Every readable record; unreadable ones are logged and skipped (their pods are cleaned up). */
  loadAll(): PodRecord[] {
    const records: PodRecord[] = [];
    for (const uid of readdirSync(this.podsDir)) {
      const path = join(this.podsDir, uid, recordFile);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue;
      }
      try {
        records.push(parsePodRecord(text, path));
      } catch (error) {
        this.#log.warn({ err: error, path }, "ignoring an unreadable pod record");
      }
    }
    return records;
  }

  /** Pod directories without a readable record (a crash before the first save). */
  strayPodDirs(known: ReadonlySet<string>): string[] {
    return readdirSync(this.podsDir).filter((uid) => !known.has(uid));
  }

  /** Removes the pod's directory: record, volumes, service-account files. */
  remove(uid: string): void {
    rmSync(this.podDir(uid), { recursive: true, force: true });
  }
}
