import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { JsonObject } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import { FRONT_PROXY_CLIENT_NAME } from "./front-proxy-certificates.js";

export const AUTHENTICATION_CONFIG_MAP = {
  namespace: "kube-system",
  name: "extension-apiserver-authentication",
};

/** The request headers the front proxy sets, as kube-apiserver's `--requestheader-*` flags name them. */
export const REMOTE_USER_HEADER = "X-Remote-User";
export const REMOTE_GROUP_HEADER = "X-Remote-Group";
export const REMOTE_EXTRA_HEADER_PREFIX = "X-Remote-Extra-";

const FIELD_MANAGER = "kube-apiserver";

export interface AuthenticationConfig {
  /** The CA client certificates of this server's users are checked against. */
  clientCaPem: string;
  /** The front-proxy CA: X-Remote-* headers count only from certificates it signed. */
  requestHeaderCaPem: string;
}

function desiredData(config: AuthenticationConfig): JsonObject {
  return {
    "client-ca-file": config.clientCaPem,
    "requestheader-client-ca-file": config.requestHeaderCaPem,
    "requestheader-allowed-names": JSON.stringify([FRONT_PROXY_CLIENT_NAME]),
    "requestheader-username-headers": JSON.stringify([REMOTE_USER_HEADER]),
    "requestheader-group-headers": JSON.stringify([REMOTE_GROUP_HEADER]),
    "requestheader-extra-headers-prefix": JSON.stringify([REMOTE_EXTRA_HEADER_PREFIX]),
  };
}

/**
 * Publishes `kube-system/extension-apiserver-authentication` as kube-apiserver does at start-up:
 * aggregated API servers read from it which CA signs client certificates and which front proxy
 * (CA, allowed names, header names) they may believe X-Remote-* headers from.
 */
export function publishAuthenticationConfigMap(service: ObjectService, config: AuthenticationConfig): void {
  const type = service.registry.find("", "v1", "configmaps");
  if (!type) throw new Error("the configmaps resource is not registered");
  const { namespace, name } = AUTHENTICATION_CONFIG_MAP;
  const data = desiredData(config);
  const current = service.find(type, namespace, name);
  const options = { fieldManager: FIELD_MANAGER };
  if (!current) {
    service.create(
      type,
      namespace,
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data },
      options,
    );
    return;
  }
  if (jsonEqual(current.data, data)) return;
  service.update(type, namespace, name, { ...current, data }, options);
}
