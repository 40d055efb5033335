import type { BlockingOpName } from "./blocking-ops.js";
import type { LibvirtErrorData } from "./errors.js";

/** Main thread → worker: run one blocking call. */
export interface JobRequest {
  readonly id: number;
  readonly op: BlockingOpName;
  readonly args: readonly unknown[];
}

/** Worker → main thread: the call's result, or its error as read on the worker's thread. */
export type JobReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | {
      readonly id: number;
      readonly ok: false;
      readonly libvirt?: { readonly operation: string; readonly data: LibvirtErrorData };
      readonly message?: string;
    };
