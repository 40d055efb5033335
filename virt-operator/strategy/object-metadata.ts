import {
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  type ManagedObject,
  REGISTRY_ANNOTATION,
  VERSION_ANNOTATION,
} from "./install-strategy.js";
import type { RenderContext } from "./render-context.js";

/** KubeVirt's label naming a component and selecting its pods (`kubevirt.io: virt-controller`). */
export const COMPONENT_LABEL = "kubevirt.io";
export const APP_COMPONENT_LABEL = "app.kubernetes.io/component";
export const APP_COMPONENT_VALUE = "kubevirt";
export const PART_OF_LABEL = "app.kubernetes.io/part-of";
export const PART_OF_VALUE = "kubevirt-ts";
export const APP_VERSION_LABEL = "app.kubernetes.io/version";

/** A label value: at most 63 characters, alphanumeric at both ends, `-_.` inside. */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** The labels every managed object carries: the managed-by label the reconciler lists by, and KubeVirt's. */
export function managedLabels(context: RenderContext): Record<string, string> {
  return {
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
    [APP_COMPONENT_LABEL]: APP_COMPONENT_VALUE,
    [PART_OF_LABEL]: PART_OF_VALUE,
    // An image tag may be longer than a label value may be (128 against 63 characters): such a
    // version is still in the version annotation, and a label the API server refuses would block
    // the whole install.
    ...(LABEL_VALUE.test(context.version) ? { [APP_VERSION_LABEL]: context.version } : {}),
  };
}

/** Which strategy rendered an object (the identifier annotation is added once the digest is known). */
export function strategyAnnotations(context: RenderContext): Record<string, string> {
  return { [VERSION_ANNOTATION]: context.version, [REGISTRY_ANNOTATION]: context.registry };
}

/** The metadata of a managed object; `extraLabels` come first so that ours win on a clash. */
export function managedMetadata(
  context: RenderContext,
  name: string,
  options: { namespaced?: boolean; extraLabels?: Record<string, string> } = {},
): ManagedObject["metadata"] {
  return {
    name,
    ...(options.namespaced ? { namespace: context.namespace } : {}),
    labels: { ...options.extraLabels, ...managedLabels(context) },
    annotations: strategyAnnotations(context),
  };
}

/**
 * The labels of a component's pod template. Only what selects and names the pods: anything in a
 * template that changes rolls every pod, so the strategy's version, registry and identifier stay
 * out (the image already carries registry and tag).
 */
export function podTemplateLabels(component: string): Record<string, string> {
  return { [COMPONENT_LABEL]: component, [APP_COMPONENT_LABEL]: APP_COMPONENT_VALUE };
}
