import type { Clock } from "../../runtime/index.js";

/** How each workload controller runs, besides the manager it is added to. */
export interface ControllerSettings {
  /** What its reconciler and expectations read the time from. */
  clock: Clock;
  /** Reconciles at once (never two for the same key). */
  workers: number;
}
