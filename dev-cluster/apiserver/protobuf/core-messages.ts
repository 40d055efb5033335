import type { MessageTables } from "./message-schema.js";

/**
 * core/v1 kinds other than pods: Namespace, ConfigMap, Secret, ServiceAccount, Service, ResourceQuota.
 * Notation in message-schema.ts. Field numbers are upstream's generated.proto (k8s.io/api v0.32); JSON names,
 * pointers (`*`) and fields without omitempty (`keepZero`) follow the Go types' struct tags.
 */
export const coreMessages: MessageTables = {
  Namespace: {
    1: "metadata ObjectMeta",
    2: "spec NamespaceSpec",
    3: "status NamespaceStatus",
  },
  ConfigMap: {
    1: "metadata ObjectMeta",
    2: "data map[string]",
    3: "binaryData map[bytes]",
    4: "immutable *bool",
  },
  Secret: {
    1: "metadata ObjectMeta",
    2: "data map[bytes]",
    3: "type string",
    4: "stringData map[string]",
    5: "immutable *bool",
  },
  ServiceAccount: {
    1: "metadata ObjectMeta",
    2: "secrets []ObjectReference",
    3: "imagePullSecrets []LocalObjectReference",
    4: "automountServiceAccountToken *bool",
  },
  Service: {
    1: "metadata ObjectMeta",
    2: "spec ServiceSpec",
    3: "status ServiceStatus",
  },
  ResourceQuota: {
    1: "metadata ObjectMeta",
    2: "spec ResourceQuotaSpec",
    3: "status ResourceQuotaStatus",
  },
  NamespaceSpec: {
    1: "finalizers []string",
  },
  NamespaceStatus: {
    1: "phase string",
    2: "conditions []NamespaceCondition",
  },
  ObjectReference: {
    1: "kind string",
    2: "namespace string",
    3: "name string",
    4: "uid string",
    5: "apiVersion string",
    6: "resourceVersion string",
    7: "fieldPath string",
  },
  LocalObjectReference: {
    1: "name string",
  },
  ServiceSpec: {
    1: "ports []ServicePort",
    2: "selector map[string]",
    3: "clusterIP string",
    4: "type string",
    5: "externalIPs []string",
    7: "sessionAffinity string",
    8: "loadBalancerIP string",
    9: "loadBalancerSourceRanges []string",
    10: "externalName string",
    11: "externalTrafficPolicy string",
    12: "healthCheckNodePort int32",
    13: "publishNotReadyAddresses bool",
    14: "sessionAffinityConfig SessionAffinityConfig",
    17: "ipFamilyPolicy *string",
    18: "clusterIPs []string",
    19: "ipFamilies []string",
    20: "allocateLoadBalancerNodePorts *bool",
    21: "loadBalancerClass *string",
    22: "internalTrafficPolicy *string",
    23: "trafficDistribution *string",
  },
  ServiceStatus: {
    1: "loadBalancer LoadBalancerStatus",
    2: "conditions []Condition",
  },
  ResourceQuotaSpec: {
    1: "hard map[Quantity]",
    2: "scopes []string",
    3: "scopeSelector ScopeSelector",
  },
  ResourceQuotaStatus: {
    1: "hard map[Quantity]",
    2: "used map[Quantity]",
  },
  NamespaceCondition: {
    1: "type string keepZero",
    2: "status string keepZero",
    4: "lastTransitionTime Time",
    5: "reason string",
    6: "message string",
  },
  ServicePort: {
    1: "name string",
    2: "protocol string",
    3: "port int32 keepZero",
    4: "targetPort IntOrString",
    5: "nodePort int32",
    6: "appProtocol *string",
  },
  SessionAffinityConfig: {
    1: "clientIP ClientIPConfig",
  },
  LoadBalancerStatus: {
    1: "ingress []LoadBalancerIngress",
  },
  ScopeSelector: {
    1: "matchExpressions []ScopedResourceSelectorRequirement",
  },
  ClientIPConfig: {
    1: "timeoutSeconds *int32",
  },
  LoadBalancerIngress: {
    1: "ip string",
    2: "hostname string",
    3: "ipMode *string",
    4: "ports []PortStatus",
  },
  ScopedResourceSelectorRequirement: {
    1: "scopeName string keepZero",
    2: "operator string keepZero",
    3: "values []string",
  },
  PortStatus: {
    1: "port int32 keepZero",
    2: "protocol string keepZero",
    3: "error *string",
  },
};
