import type { JsonObject } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import { AUTHENTICATION_CONFIG_MAP } from "./authentication-config-map.js";

const ROLE_NAME = "extension-apiserver-authentication-reader";
const NAMESPACE = AUTHENTICATION_CONFIG_MAP.namespace;

/** What kube-apiserver's bootstrap policy marks its own roles with. */
const BOOTSTRAP_METADATA = {
  labels: { "kubernetes.io/bootstrapping": "rbac-defaults" },
  annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" },
};

function bootstrapObjects(): { plural: string; object: JsonObject }[] {
  return [
    {
      plural: "roles",
      object: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "Role",
        metadata: { name: ROLE_NAME, namespace: NAMESPACE, ...BOOTSTRAP_METADATA },
        rules: [
          {
            apiGroups: [""],
            resources: ["configmaps"],
            resourceNames: [AUTHENTICATION_CONFIG_MAP.name],
            verbs: ["get", "list", "watch"],
          },
        ],
      },
    },
    {
      plural: "rolebindings",
      object: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: `system::${ROLE_NAME}`, namespace: NAMESPACE, ...BOOTSTRAP_METADATA },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: ROLE_NAME },
        subjects: [
          { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "system:kube-controller-manager" },
          { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "system:kube-scheduler" },
        ],
      },
    },
  ];
}

/**
 * The Role `kube-system/extension-apiserver-authentication-reader` (read the authentication
 * ConfigMap) and its bootstrap RoleBinding, as kube-apiserver's bootstrap policy creates them.
 * Aggregated API servers bind their service account to the Role. Existing objects are left alone.
 */
export function ensureAuthenticationReaderRole(service: ObjectService): void {
  for (const { plural, object } of bootstrapObjects()) {
    const type = service.registry.find("rbac.authorization.k8s.io", "v1", plural);
    if (!type) throw new Error(`the ${plural} resource is not registered`);
    const name = String((object.metadata as JsonObject).name);
    if (service.find(type, NAMESPACE, name)) continue;
    service.create(type, NAMESPACE, object, { fieldManager: "kube-apiserver" });
  }
}
