/**
 * Authorization of a subresource request, delegated to the API server as every aggregated API
 * server does: a SubjectAccessReview for the caller, answered by the cluster's RBAC. virt-api
 * holds no policy of its own.
 */
import type { KubeClient } from "../../runtime/index.js";
import { subjectAccessReviewKind } from "../kinds.js";
import { forbidden, internalError } from "../status/status-error.js";
import type { Caller } from "./caller.js";

/** What a request does: `update` on `virtualmachines/start` of one VM, `get` on `virtualmachineinstances/console`... */
export interface ResourceRequest {
  readonly verb: "get" | "update";
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

export interface Decision {
  readonly allowed: boolean;
  /** Why, when the authorizer says (RBAC names the binding that allowed, or nothing on a denial). */
  readonly reason?: string;
}

export interface Authorizer {
  authorize(caller: Caller, request: ResourceRequest): Promise<Decision>;
}

export class SubjectAccessReviewAuthorizer implements Authorizer {
  readonly #client: KubeClient;

  constructor(client: KubeClient) {
    this.#client = client;
  }

  async authorize(caller: Caller, request: ResourceRequest): Promise<Decision> {
    const review = await this.#client.resource(subjectAccessReviewKind).create({
      metadata: {},
      spec: {
        user: caller.username,
        ...(caller.uid ? { uid: caller.uid } : {}),
        groups: [...caller.groups],
        extra: Object.fromEntries(Object.entries(caller.extra).map(([key, values]) => [key, [...values]])),
        resourceAttributes: {
          namespace: request.namespace,
          verb: request.verb,
          group: request.group,
          version: "v1",
          resource: request.resource,
          subresource: request.subresource,
          name: request.name,
        },
      },
    });
    const status = review.status;
    return { allowed: status?.allowed === true, ...(status?.reason ? { reason: status.reason } : {}) };
  }
}

/**
 * Throws unless `caller` may make `request`: 403 with kube's wording when denied, 500 when the
 * question could not be asked (failing closed: no answer is no permission).
 */
export async function requireAuthorized(
  authorizer: Authorizer,
  caller: Caller,
  request: ResourceRequest,
): Promise<void> {
  let decision: Decision;
  try {
    decision = await authorizer.authorize(caller, request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw internalError(`cannot authorize the request: ${reason}`, error);
  }
  if (decision.allowed) return;
  const what =
    `User "${caller.username}" cannot ${request.verb} resource "${request.resource}${request.subresource ? `/${request.subresource}` : ""}"` +
    ` in API group "${request.group}" in the namespace "${request.namespace}"`;
  throw forbidden(
    { group: request.group, resource: request.resource },
    request.name,
    decision.reason ? `${what}: ${decision.reason}` : what,
  );
}
