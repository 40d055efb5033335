import type { JsonObject } from "../json.js";
import {
  booleanAt,
  childObject,
  defaultString,
  defaultValue,
  objectAt,
  objectsAt,
  stringAt,
} from "./json-read.js";
import { podQosClass } from "./pod-qos.js";

/**
 * The defaults kube-apiserver applies to pods and pod templates (SetDefaults_PodSpec,
 * SetDefaults_Container, ...) and, for pods only, what its admission plugins add
 * (ServiceAccount, Priority) and what pod creation sets in the status.
 */

/** kube's ParseImageName: an image without tag or digest means `latest`. */
function imageTag(image: string): string {
  const [withoutDigest = "", digest] = image.split("@");
  const lastSegment = withoutDigest.slice(withoutDigest.lastIndexOf("/") + 1);
  const colon = lastSegment.indexOf(":");
  if (colon >= 0) return lastSegment.slice(colon + 1);
  return digest === undefined ? "latest" : "";
}

function defaultProbe(probe: JsonObject | undefined): void {
  if (!probe) return;
  defaultValue(probe, "timeoutSeconds", 1);
  defaultValue(probe, "periodSeconds", 10);
  defaultValue(probe, "successThreshold", 1);
  defaultValue(probe, "failureThreshold", 3);
  const httpGet = objectAt(probe, "httpGet");
  if (httpGet) {
    defaultString(httpGet, "path", "/");
    defaultString(httpGet, "scheme", "HTTP");
  }
}

function defaultContainer(container: JsonObject, hostNetwork: boolean): void {
  defaultString(container, "terminationMessagePath", "/dev/termination-log");
  defaultString(container, "terminationMessagePolicy", "File");
  defaultString(
    container,
    "imagePullPolicy",
    imageTag(stringAt(container, "image") ?? "") === "latest" ? "Always" : "IfNotPresent",
  );
  defaultValue(container, "resources", {});
  for (const port of objectsAt(container, "ports")) {
    defaultString(port, "protocol", "TCP");
    // With the host's network the container port is the host port.
    if (hostNetwork && !port.hostPort && typeof port.containerPort === "number")
      port.hostPort = port.containerPort;
  }
  for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"])
    defaultProbe(objectAt(container, probe));
  for (const env of objectsAt(container, "env")) {
    const fieldRef = objectAt(env, "valueFrom", "fieldRef");
    if (fieldRef) defaultString(fieldRef, "apiVersion", "v1");
  }
}

const modeDefaultedSources = ["secret", "configMap", "downwardAPI", "projected"];

function defaultVolume(volume: JsonObject): void {
  // A volume without any source is an emptyDir.
  if (Object.keys(volume).every((key) => key === "name")) volume.emptyDir = {};
  for (const source of modeDefaultedSources) {
    const sourceObject = objectAt(volume, source);
    if (sourceObject) defaultValue(sourceObject, "defaultMode", 420);
  }
  const hostPath = objectAt(volume, "hostPath");
  if (hostPath) defaultValue(hostPath, "type", "");
}

/** SetDefaults_PodSpec and what it reaches: containers, probes, ports, volumes. */
export function defaultPodSpec(spec: JsonObject): void {
  defaultString(spec, "dnsPolicy", "ClusterFirst");
  defaultString(spec, "restartPolicy", "Always");
  defaultValue(spec, "terminationGracePeriodSeconds", 30);
  defaultString(spec, "schedulerName", "default-scheduler");
  defaultValue(spec, "enableServiceLinks", true);
  defaultValue(spec, "securityContext", {});
  const hostNetwork = booleanAt(spec, "hostNetwork") === true;
  for (const list of ["containers", "initContainers", "ephemeralContainers"]) {
    for (const container of objectsAt(spec, list)) defaultContainer(container, hostNetwork);
  }
  for (const volume of objectsAt(spec, "volumes")) defaultVolume(volume);
}

/** Defaults of a `template` (Deployment, ReplicaSet, DaemonSet): the pod spec ones, no admission. */
export function defaultPodTemplate(template: JsonObject | undefined): void {
  const spec = objectAt(template, "spec");
  if (spec) defaultPodSpec(spec);
}

const builtinPriorities: Readonly<Record<string, number>> = {
  "system-node-critical": 2000001000,
  "system-cluster-critical": 2000000000,
};

/** SetDefaults_Pod: a container limit without a request requests the limit. */
function defaultRequestsFromLimits(container: JsonObject): void {
  const resources = objectAt(container, "resources");
  const limits = objectAt(resources, "limits");
  if (!resources || !limits) return;
  const requests = childObject(resources, "requests");
  for (const [resource, amount] of Object.entries(limits)) defaultValue(requests, resource, amount);
}

function defaultServiceAccount(spec: JsonObject): void {
  // The ServiceAccount admission plugin; `serviceAccount` is the deprecated alias kube keeps in sync.
  const name = stringAt(spec, "serviceAccountName") || stringAt(spec, "serviceAccount") || "default";
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
}

export function defaultPod(pod: JsonObject): void {
  const spec = childObject(pod, "spec");
  for (const list of ["containers", "initContainers"]) {
    for (const container of objectsAt(spec, list)) defaultRequestsFromLimits(container);
  }
  defaultPodSpec(spec);
  defaultServiceAccount(spec);
  defaultValue(spec, "priority", builtinPriorities[stringAt(spec, "priorityClassName") ?? ""] ?? 0);
  const status = childObject(pod, "status");
  defaultString(status, "phase", "Pending");
  defaultString(status, "qosClass", podQosClass(spec));
}
