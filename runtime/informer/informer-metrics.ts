/** What an informer reports about its list/watch loop; `runtime/metrics` implements it. */
export interface InformerMetrics {
  listed(): void;
  watchStarted(): void;
  /** A list or watch failed (the loop retries). */
  failed(): void;
  objects(count: number): void;
}

export const noInformerMetrics: InformerMetrics = {
  listed() {},
  watchStarted() {},
  failed() {},
  objects() {},
};
