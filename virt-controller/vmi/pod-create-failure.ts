import { KubeApiError } from "../../runtime/index.js";

/**
 * KubeVirt's FailedCreatePodReason: the reason of the Event and of the VMI's Synchronized=False
 * condition when the API server refuses the launcher pod (a 403 from a quota or admission, a 422
 * from validation). Without it the VMI sits in Pending and nothing the user reads says why.
 */
export const FAILED_CREATE_POD_REASON = "FailedCreate";

/**
 * A launcher pod the API server did not create. It carries its reason so that the reconcile can
 * write it into the VMI's condition, and is thrown afterwards so the key is retried with backoff.
 */
export class PodCreateError extends Error {
  override readonly name = "PodCreateError";
  readonly reason = FAILED_CREATE_POD_REASON;
  /** What the API server said (its Status message), as KubeVirt shows it. */
  readonly serverMessage: string;

  constructor(vmiKey: string, cause: unknown) {
    const serverMessage = serverMessageOf(cause);
    super(`cannot create the launcher pod of VMI ${vmiKey}: ${serverMessage}`, { cause });
    this.serverMessage = serverMessage;
  }

  /** The Synchronized condition's message (KubeVirt's words). */
  get conditionMessage(): string {
    return `failed to create virtual machine pod: ${this.serverMessage}`;
  }

  /** The Event's message (KubeVirt's words). */
  get eventMessage(): string {
    return `Error creating pod: ${this.serverMessage}`;
  }
}

/** The API server's own message when it answered; otherwise the error's (no answer at all). */
function serverMessageOf(error: unknown): string {
  if (error instanceof KubeApiError) return error.status?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
