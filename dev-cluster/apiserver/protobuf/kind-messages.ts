import { authenticationMessages } from "./authentication-messages.js";
import { authorizationMessages } from "./authorization-messages.js";
import { containerMessages } from "./container-messages.js";
import { coreMessages } from "./core-messages.js";
import { compileMessageSchemas, type MessageSchema } from "./message-schema.js";
import { metaMessages } from "./meta-messages.js";
import { podMessages } from "./pod-messages.js";
import { volumeMessages } from "./volume-messages.js";
import { workloadMessages } from "./workload-messages.js";

/** Every message the decoder knows, by its name in generated.proto (names do not collide across these groups). */
export const kubernetesMessages: ReadonlyMap<string, MessageSchema> = compileMessageSchemas([
  metaMessages,
  coreMessages,
  podMessages,
  containerMessages,
  volumeMessages,
  workloadMessages,
  authenticationMessages,
  authorizationMessages,
]);

/** The kinds kubectl's typed `create` subcommands (and `create token`) send as protobuf, by apiVersion, then kind. */
const KINDS: Readonly<Record<string, readonly string[]>> = {
  v1: ["Namespace", "ConfigMap", "Secret", "ServiceAccount", "Service", "ResourceQuota"],
  "apps/v1": ["Deployment"],
  "batch/v1": ["Job", "CronJob"],
  "policy/v1": ["PodDisruptionBudget"],
  "scheduling.k8s.io/v1": ["PriorityClass"],
  "rbac.authorization.k8s.io/v1": ["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"],
  "authentication.k8s.io/v1": ["TokenRequest"],
  "authorization.k8s.io/v1": [
    "SubjectAccessReview",
    "LocalSubjectAccessReview",
    "SelfSubjectAccessReview",
    "SelfSubjectRulesReview",
  ],
};

/** The schema of a kind's top-level message, or undefined for a kind this decoder does not cover. */
export function messageForKind(apiVersion: string, kind: string): MessageSchema | undefined {
  if (!Object.hasOwn(KINDS, apiVersion) || !KINDS[apiVersion]?.includes(kind)) return undefined;
  return kubernetesMessages.get(kind);
}

export function messageNamed(name: string): MessageSchema {
  const schema = kubernetesMessages.get(name);
  // compileMessageSchemas checked every reference, so this only fails on a programming error.
  if (!schema) throw new Error(`no protobuf schema for message ${name}`);
  return schema;
}
