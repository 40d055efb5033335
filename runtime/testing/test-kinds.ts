/**
 * Kinds the runtime's own tests use against the dev-cluster API server: a namespaced custom
 * resource with a status subresource (the shape of every KubeVirt kind) and ConfigMaps.
 */
import { isAlreadyExists } from "../client/api-errors.js";
import type { KubeClient } from "../client/kube-client.js";
import type { KubeObject } from "../objects/kube-object.js";
import { defineKind } from "../objects/resource-kind.js";

export interface Widget extends KubeObject {
  spec?: { size?: number; color?: string; children?: number };
  status?: { observedSize?: number; phase?: string };
}

export const widgetKind = defineKind<Widget>({
  group: "runtime.test.kubevirt.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export const configMapKind = defineKind<ConfigMap>({
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
});

interface CustomResourceDefinition extends KubeObject {
  spec: unknown;
}

const crdKind = defineKind<CustomResourceDefinition>({
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  plural: "customresourcedefinitions",
  namespaced: false,
});

const widgetCrd: CustomResourceDefinition = {
  metadata: { name: `${widgetKind.plural}.${widgetKind.group}` },
  spec: {
    group: widgetKind.group,
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  size: { type: "integer" },
                  color: { type: "string" },
                  children: { type: "integer" },
                },
              },
              status: {
                type: "object",
                properties: { observedSize: { type: "integer" }, phase: { type: "string" } },
              },
            },
          },
        },
      },
    ],
  },
};

/** Installs the Widget CRD and waits until widgets can be listed. */
export async function installWidgetCrd(client: KubeClient): Promise<void> {
  try {
    await client.resource(crdKind).create(widgetCrd);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.resource(widgetKind).list({ namespace: "default", limit: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error("the Widget CRD was not served within 10 s", { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
