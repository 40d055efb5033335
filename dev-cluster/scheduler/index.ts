/**
 * The dev cluster's scheduler (kube-scheduler's default profile, reduced to what the dev cluster
 * needs): `startScheduler({ kubeConfig, log })` returns a handle with `stop()`.
 */
export { fitErrorMessage, NO_NODES_AVAILABLE } from "./fit-error.js";
export {
  addPodSchedulingController,
  type PodSchedulingControllerOptions,
} from "./pod-scheduling-controller.js";
export { type Placement, schedulePod } from "./schedule-pod.js";
export { type RunningScheduler, Scheduler, type SchedulerOptions, startScheduler } from "./scheduler.js";
