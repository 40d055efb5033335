import type { UserInfo } from "../auth/authenticator.js";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import type { AdmissionOperation } from "./webhook-configuration.js";

/** What admission decides on (k8s.io/apiserver's admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The resource (group, version, plural, kind) the request addressed. */
  type: ResourceType;
  /** "" or e.g. "status". */
  subresource: string;
  name: string;
  /** "" for cluster-scoped objects; a Namespace's own name for Namespaces. */
  namespace: string;
  /** The object as it will be stored; undefined for DELETE. */
  object: JsonObject | undefined;
  /** The stored object an UPDATE or DELETE replaces. */
  oldObject: JsonObject | undefined;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions, PatchOptions or DeleteOptions (meta.k8s.io/v1). */
  options: JsonObject;
  user: UserInfo;
}

/** Whether the request is about a Namespace object itself (which is cluster-scoped). */
export function isNamespaceResource(attributes: Pick<AdmissionAttributes, "type">): boolean {
  return attributes.type.group === "" && attributes.type.plural === "namespaces";
}
