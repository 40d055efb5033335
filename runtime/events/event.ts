import type { KubeObject } from "../objects/kube-object.js";
import { defineKind } from "../objects/resource-kind.js";

/** core/v1 Event, the form `kubectl describe` and `kubectl get events` show. */
export interface CoreEvent extends KubeObject {
  involvedObject: {
    apiVersion?: string;
    kind?: string;
    namespace?: string;
    name?: string;
    uid?: string;
    resourceVersion?: string;
  };
  reason: string;
  message: string;
  type: EventType;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  reportingComponent?: string;
  reportingInstance?: string;
}

export type EventType = "Normal" | "Warning";

export const eventKind = defineKind<CoreEvent>({
  group: "",
  version: "v1",
  kind: "Event",
  plural: "events",
  namespaced: true,
});
