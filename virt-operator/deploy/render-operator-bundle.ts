import { buildCrd, KubeVirtKind } from "../../api/index.js";
import {
  APP_COMPONENT_LABEL,
  APP_COMPONENT_VALUE,
  APP_VERSION_LABEL,
  COMPONENT_LABEL,
  PART_OF_LABEL,
  PART_OF_VALUE,
} from "../strategy/object-metadata.js";
import { renderRule } from "../strategy/rbac-objects.js";
import { componentImage } from "../strategy/render-context.js";
import { OPERATOR_SERVICE_ACCOUNT, renderOperatorDeployment, VIRT_OPERATOR } from "./operator-deployment.js";
import { operatorRules } from "./operator-rbac.js";

/** KubeVirt's install namespace. */
export const INSTALL_NAMESPACE = "kubevirt";
const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";

export interface BundleOptions {
  /** Registry (and repository prefix) of the images, e.g. `ghcr.io/kubevirt-ts`. */
  readonly registry: string;
  /** Tag of the images, e.g. `v0.1.0`. */
  readonly tag: string;
}

/**
 * `deploy/kubevirt-operator.yaml`: what a user applies to install the operator, which installs
 * the rest. None of it carries the managed-by label: the operator never lists, repairs or
 * removes its own bundle (uninstall deletes the CR's objects, not the operator).
 */
export function renderOperatorBundle(options: BundleOptions): Record<string, unknown>[] {
  const namespace = INSTALL_NAMESPACE;
  const labels = {
    [COMPONENT_LABEL]: "",
    [APP_COMPONENT_LABEL]: APP_COMPONENT_VALUE,
    [PART_OF_LABEL]: PART_OF_VALUE,
    [APP_VERSION_LABEL]: options.tag,
  };
  const rules = operatorRules(namespace);
  const roleRef = (kind: string) => ({
    apiGroup: "rbac.authorization.k8s.io",
    kind,
    name: OPERATOR_SERVICE_ACCOUNT,
  });
  const subjects = [{ kind: "ServiceAccount", name: OPERATOR_SERVICE_ACCOUNT, namespace }];
  return [
    {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: namespace,
        // virt-handler is privileged: Pod Security admission must allow it in this namespace.
        labels: { ...labels, "pod-security.kubernetes.io/enforce": "privileged" },
      },
    },
    buildCrd(KubeVirtKind),
    {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, namespace, labels },
    },
    {
      apiVersion: RBAC_API_VERSION,
      kind: "ClusterRole",
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, labels },
      rules: rules.cluster.map(renderRule),
    },
    {
      apiVersion: RBAC_API_VERSION,
      kind: "ClusterRoleBinding",
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, labels },
      roleRef: roleRef("ClusterRole"),
      subjects,
    },
    {
      apiVersion: RBAC_API_VERSION,
      kind: "Role",
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, namespace, labels },
      rules: rules.namespaced.map(renderRule),
    },
    {
      apiVersion: RBAC_API_VERSION,
      kind: "RoleBinding",
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, namespace, labels },
      roleRef: roleRef("Role"),
      subjects,
    },
    renderOperatorDeployment({
      namespace,
      image: componentImage({ registry: options.registry, version: options.tag }, VIRT_OPERATOR),
      labels,
    }),
  ];
}

/**
 * `deploy/kubevirt-cr.yaml`: KubeVirt's release CR, field for field, so a KubeVirt user's
 * habits (and patches against it) carry over.
 */
export function renderKubeVirtCr(): Record<string, unknown> {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "KubeVirt",
    metadata: { name: "kubevirt", namespace: INSTALL_NAMESPACE },
    spec: {
      certificateRotateStrategy: {},
      configuration: { developerConfiguration: { featureGates: [] } },
      customizeComponents: {},
      imagePullPolicy: "IfNotPresent",
      workloadUpdateStrategy: {},
    },
  };
}
