import type { Clock, Manager } from "../../runtime/index.js";

/** What each workload controller is built from: the manager it runs in and the clock it reads. */
export interface ControllerContext {
  manager: Manager;
  clock: Clock;
  /** Reconciles at once (never two for the same key). */
  workers: number;
}
