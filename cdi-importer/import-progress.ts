// CDI's progress metric, which the DataVolume controller scrapes from the importer pod into
// status.progress: `kubevirt_cdi_import_progress_total{ownerUID}` = percent done, 0 to 100.
import { Counter, Registry } from "prom-client";

export const PROGRESS_METRIC = "kubevirt_cdi_import_progress_total";

export class ImportProgress {
  readonly registry = new Registry();
  readonly #counter: Counter<"ownerUID">;
  readonly #ownerUid: string;
  #total: number | undefined;
  #done = 0;
  #percent = 0;

  constructor(ownerUid: string) {
    this.#ownerUid = ownerUid;
    this.#counter = new Counter({
      name: PROGRESS_METRIC,
      help: "The import progress in percentage",
      labelNames: ["ownerUID"],
      registers: [this.registry],
    });
    // The series exists from the start, at 0.
    this.#counter.inc({ ownerUID: ownerUid }, 0);
  }

  /** The number of bytes that make 100 % (Content-Length, blob size); unknown leaves the metric at 0 until done. */
  expect(totalBytes: number | undefined): void {
    this.#total = totalBytes !== undefined && totalBytes > 0 ? totalBytes : undefined;
  }

  advance(bytes: number): void {
    this.#done += bytes;
    // Never 100 before the disk is in place: the last percent is the conversion and the rename.
    if (this.#total !== undefined) this.#set(Math.min(99, (this.#done / this.#total) * 100));
  }

  complete(): void {
    this.#set(100);
  }

  get percent(): number {
    return this.#percent;
  }

  #set(percent: number): void {
    if (percent <= this.#percent) return;
    this.#counter.inc({ ownerUID: this.#ownerUid }, percent - this.#percent);
    this.#percent = percent;
  }
}
