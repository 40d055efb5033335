import type { MessageTables } from "./message-schema.js";

/**
 * authentication.k8s.io/v1 TokenRequest, what `kubectl create token` sends.
 * Notation in message-schema.ts. Field numbers are upstream's generated.proto (k8s.io/api v0.32); JSON names,
 * pointers (`*`) and fields without omitempty (`keepZero`) follow the Go types' struct tags.
 */
export const authenticationMessages: MessageTables = {
  TokenRequest: {
    1: "metadata ObjectMeta",
    2: "spec TokenRequestSpec",
    3: "status TokenRequestStatus",
  },
  TokenRequestSpec: {
    1: "audiences []string",
    3: "boundObjectRef BoundObjectReference",
    4: "expirationSeconds *int64",
  },
  BoundObjectReference: {
    1: "kind string",
    2: "apiVersion string",
    3: "name string",
    4: "uid string",
  },
  TokenRequestStatus: {
    1: "token string keepZero",
    2: "expirationTimestamp Time",
  },
};
