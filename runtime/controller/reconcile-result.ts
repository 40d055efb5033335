import type { Logger } from "pino";

/**
 * What a reconcile returns. `{}` means done; `requeueAfterMs` means "look again
 * later" (polling something that sends no events). There is deliberately no boolean `requeue`:
 * throw to retry with backoff.
 */
export interface ReconcileResult {
  requeueAfterMs?: number;
}

export interface ReconcileRequest {
  /** The queue key: `namespace/name`, or `name` for cluster-scoped objects. */
  key: string;
  namespace?: string;
  name: string;
  /** Carries {controller, namespace, name, reconcileId}. */
  log: Logger;
  /** Aborts when the controller stops; pass it to long calls. */
  signal: AbortSignal;
}

/** Every reconcile answers with a result, so that "done" reads the same in every controller. */
export type Reconcile = (request: ReconcileRequest) => Promise<ReconcileResult>;

/**
 * An error retrying cannot fix (invalid input, a spec the controller cannot act on): logged and
 * counted, but the key is not retried until something changes and enqueues it again. `reason`
 * is a short CamelCase word for Events and Conditions.
 */
export class TerminalError extends Error {
  override readonly name = "TerminalError";
  readonly reason: string;

  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** How a reconcile ended, as metrics count it. */
export type ReconcileOutcome = "success" | "requeue_after" | "error" | "terminal_error";

export const reconcileOutcomes: readonly ReconcileOutcome[] = [
  "success",
  "requeue_after",
  "error",
  "terminal_error",
];

export interface ControllerMetrics {
  reconciled(outcome: ReconcileOutcome, seconds: number): void;
  activeWorkers(delta: number): void;
}

export const noControllerMetrics: ControllerMetrics = {
  reconciled() {},
  activeWorkers() {},
};
