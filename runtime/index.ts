/**
 * The controller runtime's public API. Components import from here; the folders behind it each
 * hold one concern (client, informer, queue, controller, leader election, events, manager,
 * metrics).
 */
export {
  addCommonOptions,
  addKubeconfigOption,
  addLogLevelOption,
  type CommonOptions,
  type ListenDefaults,
  readCommonOptions,
} from "./cli/common-options.js";
export { componentCommand, parseOrExit } from "./cli/component-command.js";
export {
  addLeaderElectedOptions,
  type LeaderElectedOptions,
  readLeaderElectedOptions,
} from "./cli/leader-elected-options.js";
export {
  addLeaderElectionOptions,
  type LeaderElectionOptions,
  readLeaderElectionOptions,
} from "./cli/leader-election-options.js";
export { parseLogLevel, parsePort, parseSeconds } from "./cli/option-parsers.js";
export {
  addServingOptions,
  DEFAULT_HEALTH_PORT,
  DEFAULT_METRICS_PORT,
  readServingOptions,
  type ServingDefaults,
  type ServingOptions,
} from "./cli/serving-options.js";
export * from "./client/api-errors.js";
export { KubeClient, type KubeClientOptions } from "./client/kube-client.js";
export { loadKubeConfig } from "./client/load-kube-config.js";
export { type ApplyOptions, type PatchOptions, ResourceClient } from "./client/resource-client.js";
export { KubeTransport, type TransportOptions } from "./client/transport.js";
export type { WatchEvent } from "./client/watch-events.js";
export type {
  DeleteOptions,
  JsonPatchOperation,
  ListOptions,
  ListResult,
  PropagationPolicy,
  WatchOptions,
  WriteOptions,
} from "./client/write-options.js";
export { Backoff, type BackoffOptions } from "./clock/backoff.js";
export { type Clock, sleep, systemClock } from "./clock/clock.js";
export { microTime, parseWireTime, wireTime, wireTimeMillis } from "./clock/wire-time.js";
export { trackChildExpectations } from "./controller/child-expectations.js";
export { Controller, type ControllerOptions } from "./controller/controller.js";
export { controllerOwnerKey, type KeyMapper, ownKey } from "./controller/enqueue-mappers.js";
export { Expectations, type ExpectationsOptions } from "./controller/expectations.js";
export { CACHE_IS_BEHIND, OwnWrites } from "./controller/own-writes.js";
export {
  type Reconcile,
  type ReconcileOutcome,
  type ReconcileRequest,
  type ReconcileResult,
  TerminalError,
} from "./controller/reconcile-result.js";
export { unlessStale } from "./controller/unless-stale.js";
export { type CoreEvent, type EventType, eventKind } from "./events/event.js";
export { EventRecorder, type EventRecorderOptions } from "./events/event-recorder.js";
export {
  byControllerUid,
  byLabel,
  byNamespace,
  type IndexFunction,
  namespaceIndex,
  stripManagedFields,
} from "./informer/indexed-store.js";
export { InformerCache, type InformerCacheOptions, type InformerRequest } from "./informer/informer-cache.js";
export { type EventHandler, type InformerOptions, SharedInformer } from "./informer/shared-informer.js";
export { type LabelMatcher, labelMatcherFromObject, labelMatcherFromText } from "./labels/label-matcher.js";
export { type LabelOperator, type LabelRequirement, LabelSelectorError } from "./labels/label-requirement.js";
export {
  formatLabelSelector,
  isEmptySelector,
  type LabelSelector,
  type LabelSelectorRequirement,
  labelsMatch,
  type WireLabelSelector,
} from "./labels/label-selector.js";
export {
  nodeSelectorRequirementMatches,
  type WireNodeSelectorRequirement,
} from "./labels/node-selector-requirement.js";
export {
  type LeaderCallbacks,
  type LeaderElectionConfig,
  LeaderElector,
} from "./leader-election/leader-elector.js";
export { type Lease, leaseKind } from "./leader-election/lease.js";
export {
  type ComponentLoggerOptions,
  componentLogger,
  type LogOutput,
} from "./logging/component-logger.js";
export {
  exitCodeOf,
  type LeaderElectedManagerOptions,
  leaderElectedManager,
} from "./manager/leader-elected-manager.js";
export { Manager, type ManagerExit, type ManagerOptions } from "./manager/manager.js";
export type { Runnable } from "./manager/runnable.js";
export { stopOnSignals } from "./manager/stop-on-signals.js";
export { RuntimeMetrics } from "./metrics/runtime-metrics.js";
export {
  type ConditionStatus,
  type ConditionUpdate,
  findCondition,
  hasCondition,
  nextCondition,
  type ProbeTime,
  putCondition,
  removeCondition,
  type StatusCondition,
  setCondition,
  setConditions,
} from "./objects/conditions.js";
export {
  type Namespace,
  namespaceKind,
  nodeKind,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  podKind,
  storageClassKind,
} from "./objects/core-kinds.js";
export { jsonEqual } from "./objects/json-equality.js";
export {
  deepFreeze,
  type Frozen,
  type KubeObject,
  mutableCopy,
  type ObjectMeta,
  type OwnerReference,
  type Status,
  type StatusCause,
  type WithObjectMeta,
} from "./objects/kube-object.js";
export { objectKey, parseKey, refKey } from "./objects/object-key.js";
export {
  apiVersionOf,
  collectionPath,
  defineKind,
  kindId,
  type ObjectRef,
  objectPath,
  type ResourceKind,
} from "./objects/resource-kind.js";
export {
  type ProgramOptions,
  type ProgramResult,
  ProgramRunner,
  ProgramStartError,
} from "./programs/program-runner.js";
export {
  isQuantity,
  QUANTITY_PATTERN,
  Quantity,
  type QuantityFormat,
  QuantityParseError,
} from "./quantity/quantity.js";
export {
  type DefaultRateLimiterOptions,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  TokenBucketRateLimiter,
} from "./queue/rate-limiters.js";
export { RateLimitingQueue } from "./queue/rate-limiting-queue.js";
export { WorkQueue } from "./queue/work-queue.js";
export {
  StepTrace,
  type StepTraceRecord,
  type TracedProgram,
  type TracedStep,
  traceProgram,
} from "./tracing/step-trace.js";
export { DEFAULT_PING_INTERVAL_MS, keepWebSocketAlive } from "./websocket/keep-alive.js";
export { refuseUpgrade } from "./websocket/refuse-upgrade.js";
export { writeMessagesTo } from "./websocket/write-messages.js";
