import { DEFAULT_HEALTH_PORT, DEFAULT_METRICS_PORT } from "../../runtime/index.js";
import type { RenderContext } from "./render-context.js";

/**
 * Pieces of the component containers, written as the API server stores them: no field that only
 * repeats its default (scheme HTTP, protocol TCP, fieldRef apiVersion v1), since the reconciler
 * compares the rendered fields with the live object's.
 */

/**
 * The port of the components' /healthz and /readyz: plain HTTP (runtime's health server), so a
 * probe needs no certificate. Their flags' default (runtime/cli/serving-options.ts).
 */
export const HEALTH_PORT = DEFAULT_HEALTH_PORT;
/** The port of the components' /metrics: HTTPS only, with their serving certificate (KubeVirt's 8443). */
export const METRICS_PORT = DEFAULT_METRICS_PORT;

/** An environment variable from the downward API (`metadata.namespace`, `status.podIP`, `spec.nodeName`). */
export function fieldEnv(name: string, fieldPath: string): Record<string, unknown> {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

export function httpGetProbe(path: string, extra: Record<string, number> = {}): Record<string, unknown> {
  return { httpGet: { path, port: HEALTH_PORT }, ...extra };
}

/** A probe on a component that serves its health endpoints over HTTPS on `port` (virt-api). */
export function httpsGetProbe(
  path: string,
  port: number,
  extra: Record<string, number> = {},
): Record<string, unknown> {
  return { httpGet: { path, port, scheme: "HTTPS" }, ...extra };
}

/**
 * The HTTPS metrics port, named as KubeVirt names it, for Services and scrapers. Every port the
 * operator applies names its protocol: it is a key of the ports list, and server-side apply before
 * Kubernetes 1.21 refuses a port without it ("omits key field \"protocol\"").
 */
export function metricsPort(): Record<string, unknown> {
  return { name: "metrics", containerPort: METRICS_PORT, protocol: "TCP" };
}

/** The CR's pull policy on a container, when it gives one. */
export function pullPolicy(context: RenderContext): Record<string, string> {
  return context.imagePullPolicy ? { imagePullPolicy: context.imagePullPolicy } : {};
}

/** The CR's pull secrets on a pod spec, when it gives any. */
export function pullSecrets(context: RenderContext): Record<string, unknown> {
  return context.imagePullSecrets.length > 0
    ? { imagePullSecrets: context.imagePullSecrets.map((secret) => ({ ...secret })) }
    : {};
}

/** A pod selector on the component label only: selectors are immutable, so they never carry a version. */
export function componentSelector(componentLabel: string, component: string): Record<string, unknown> {
  return { matchLabels: { [componentLabel]: component } };
}
