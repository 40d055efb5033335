import type { IncomingMessage } from "node:http";
import type { JsonObject } from "../json.js";
import type { WriteOutcome } from "./object-service.js";
import type { ObjectWrites } from "./object-writes.js";
import type { RequestTarget } from "./request-target.js";
import {
  asDryRun,
  type CreateRequest,
  type DeleteCollectionRequest,
  type DeleteRequest,
  type PatchRequest,
  type UpdateRequest,
} from "./write-request.js";

/** Checks a write before it is made, from what it would store (RBAC's escalation check). */
export interface WriteGuard {
  /** Whether this request's write must be checked, and so computed first as a dry run. */
  applies(target: RequestTarget, request: IncomingMessage): boolean;
  /** Throws the ApiError that refuses the write whose result is `object`. */
  check(target: RequestTarget, object: JsonObject, request: IncomingMessage): void;
}

/**
 * Writes that the guard sees first: a create, update or patch it applies to is computed as a dry
 * run on `unadmitted` (so no webhook is called for the check) and checked, then made on `next`.
 */
export class GuardedWrites implements ObjectWrites {
  readonly #guard: WriteGuard;
  readonly #unadmitted: ObjectWrites;
  readonly #next: ObjectWrites;

  constructor(guard: WriteGuard, unadmitted: ObjectWrites, next: ObjectWrites) {
    this.#guard = guard;
    this.#unadmitted = unadmitted;
    this.#next = next;
  }

  async create(write: CreateRequest): Promise<WriteOutcome> {
    await this.#check(write, (dryRun) => this.#unadmitted.create(dryRun));
    return this.#next.create(write);
  }

  async update(write: UpdateRequest): Promise<WriteOutcome> {
    await this.#check(write, (dryRun) => this.#unadmitted.update(dryRun));
    return this.#next.update(write);
  }

  async patch(write: PatchRequest): Promise<WriteOutcome> {
    await this.#check(write, (dryRun) => this.#unadmitted.patch(dryRun));
    return this.#next.patch(write);
  }

  delete(write: DeleteRequest): Promise<JsonObject> {
    return this.#next.delete(write);
  }

  deleteCollection(write: DeleteCollectionRequest): Promise<JsonObject> {
    return this.#next.deleteCollection(write);
  }

  async #check<W extends CreateRequest | UpdateRequest | PatchRequest>(
    write: W,
    run: (dryRun: W) => Promise<WriteOutcome>,
  ): Promise<void> {
    if (!this.#guard.applies(write.target, write.requester)) return;
    const { object } = await run(asDryRun(write));
    this.#guard.check(write.target, object, write.requester);
  }
}
