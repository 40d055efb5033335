import type { JsonObject } from "../json.js";
import { childObject, defaultString, defaultValue, objectAt, stringAt } from "./json-read.js";
import { defaultPodTemplate } from "./pod-defaults.js";

/** apps/v1 SetDefaults_Deployment. */
export function defaultDeployment(deployment: JsonObject): void {
  const spec = childObject(deployment, "spec");
  defaultValue(spec, "replicas", 1);
  const strategy = childObject(spec, "strategy");
  defaultString(strategy, "type", "RollingUpdate");
  if (stringAt(strategy, "type") === "RollingUpdate") {
    const rollingUpdate = childObject(strategy, "rollingUpdate");
    defaultValue(rollingUpdate, "maxUnavailable", "25%");
    defaultValue(rollingUpdate, "maxSurge", "25%");
  }
  defaultValue(spec, "revisionHistoryLimit", 10);
  defaultValue(spec, "progressDeadlineSeconds", 600);
  defaultPodTemplate(objectAt(spec, "template"));
}

/** apps/v1 SetDefaults_DaemonSet. */
export function defaultDaemonSet(daemonSet: JsonObject): void {
  const spec = childObject(daemonSet, "spec");
  const strategy = childObject(spec, "updateStrategy");
  defaultString(strategy, "type", "RollingUpdate");
  if (stringAt(strategy, "type") === "RollingUpdate") {
    const rollingUpdate = childObject(strategy, "rollingUpdate");
    defaultValue(rollingUpdate, "maxUnavailable", 1);
    defaultValue(rollingUpdate, "maxSurge", 0);
  }
  defaultValue(spec, "revisionHistoryLimit", 10);
  defaultPodTemplate(objectAt(spec, "template"));
}

/** apps/v1 SetDefaults_ReplicaSet. */
export function defaultReplicaSet(replicaSet: JsonObject): void {
  const spec = childObject(replicaSet, "spec");
  defaultValue(spec, "replicas", 1);
  defaultPodTemplate(objectAt(spec, "template"));
}
