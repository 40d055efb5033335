/**
 * What a work queue reports about itself (client-go's workqueue metrics). The queue calls these;
 * `runtime/metrics` implements them on a prom-client registry.
 */
export interface QueueMetrics {
  /** A key was accepted (not a duplicate). */
  added(): void;
  /** Keys waiting to be handed to a worker. */
  depth(count: number): void;
  /** Seconds a key waited between being queued and handed to a worker. */
  waited(seconds: number): void;
  /** Seconds a worker held a key. */
  worked(seconds: number): void;
  /** A key was re-queued with backoff after a failure. */
  retried(): void;
}

export const noQueueMetrics: QueueMetrics = {
  added() {},
  depth() {},
  waited() {},
  worked() {},
  retried() {},
};
