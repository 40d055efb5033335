import type { IncomingMessage } from "node:http";
import type { UserInfo } from "../auth/authenticator.js";

/**
 * Who each request in flight acts as (after impersonation), recorded by the authorization step
 * and read by handlers that answer about the requester (SelfSubjectAccessReview). Keyed by the
 * raw request, so an entry goes when the request does.
 */
export class RequestIdentities {
  readonly #users = new WeakMap<IncomingMessage, UserInfo>();

  set(request: IncomingMessage, user: UserInfo): void {
    this.#users.set(request, user);
  }

  /** The request's user; a request that reached a handler always has one. */
  get(request: IncomingMessage): UserInfo {
    const user = this.#users.get(request);
    if (!user) throw new Error("the request has no authenticated user: the authorization hook did not run");
    return user;
  }
}
