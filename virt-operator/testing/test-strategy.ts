/**
 * A small install strategy for the reconciler's tests: a CRD, a ServiceAccount, two
 * ClusterRoles (one only at v1, to see an update remove what is no longer rendered), a
 * Deployment and a DaemonSet. Images follow the CR's imageTag, as the real strategy's do.
 */
import { createHash } from "node:crypto";
import type { InstallStrategy, ManagedObject, RenderStrategy } from "../strategy/install-strategy.js";

export const TEST_NAMESPACE = "kubevirt";
export const TEST_CRD = "widgets.test.kubevirt-ts.io";
export const LEGACY_ROLE = "test-legacy";

function meta(
  name: string,
  namespaced: boolean,
  labels: Record<string, string> = {},
): ManagedObject["metadata"] {
  return { name, ...(namespaced ? { namespace: TEST_NAMESPACE } : {}), labels, annotations: {} };
}

function podTemplate(component: string, image: string): Record<string, unknown> {
  return {
    selector: { matchLabels: { "kubevirt.io": component } },
    template: {
      metadata: { labels: { "kubevirt.io": component } },
      spec: { serviceAccountName: "test-component", containers: [{ name: component, image }] },
    },
  };
}

/** The test strategy's objects for an image registry and tag, in apply order. */
export function testObjects(registry: string, version: string): ManagedObject[] {
  return [
    {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: meta(TEST_CRD, false),
      spec: {
        group: "test.kubevirt-ts.io",
        names: { kind: "Widget", listKind: "WidgetList", plural: "widgets", singular: "widget" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          },
        ],
      },
    },
    { apiVersion: "v1", kind: "ServiceAccount", metadata: meta("test-component", true) },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: meta("test-component", false),
      rules: [
        { apiGroups: ["test.kubevirt-ts.io"], resources: ["widgets"], verbs: ["get", "list", "watch"] },
      ],
    },
    ...(version === "v1"
      ? [
          {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRole",
            metadata: meta(LEGACY_ROLE, false),
            rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }],
          },
        ]
      : []),
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: meta("test-controller", true, { "kubevirt.io": "test-controller" }),
      spec: { replicas: 2, ...podTemplate("test-controller", `${registry}/test-controller:${version}`) },
    },
    {
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      metadata: meta("test-handler", true, { "kubevirt.io": "test-handler" }),
      spec: podTemplate("test-handler", `${registry}/test-handler:${version}`),
    },
  ];
}

/** Renders the test strategy from the CR's imageRegistry/imageTag, else the operator's. */
export const renderTestStrategy: RenderStrategy = (operator, kubevirt): InstallStrategy => {
  const registry = kubevirt.spec.imageRegistry ?? operator.registry;
  const version = kubevirt.spec.imageTag ?? operator.version;
  const objects = testObjects(registry, version);
  const id = createHash("sha256").update(JSON.stringify(objects)).digest("hex").slice(0, 16);
  return { registry, version, id, objects };
};
