import type { KubeObject } from "../objects/kube-object.js";
import { defineKind } from "../objects/resource-kind.js";

/** coordination.k8s.io/v1 Lease: the lock leader election is built on. */
export interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    /** MicroTime: RFC 3339 with microseconds. */
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export const leaseKind = defineKind<Lease>({
  group: "coordination.k8s.io",
  version: "v1",
  kind: "Lease",
  plural: "leases",
  namespaced: true,
});
