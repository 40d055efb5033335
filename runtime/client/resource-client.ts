import type { KubeObject, Status } from "../objects/kube-object.js";
import {
  apiVersionOf,
  collectionPath,
  type ObjectRef,
  objectPath,
  type ResourceKind,
} from "../objects/resource-kind.js";
import type { KubeTransport } from "./transport.js";
import { type WatchEvent, watchEvents } from "./watch-events.js";
import {
  contentTypes,
  type DeleteOptions,
  deleteBody,
  type JsonPatchOperation,
  type ListOptions,
  type ListResult,
  type WatchOptions,
  type WriteOptions,
  writeQuery,
} from "./write-options.js";

export interface ApplyOptions extends WriteOptions {
  /** Take fields owned by other managers instead of failing with a Conflict. */
  force?: boolean;
}

export interface PatchOptions extends WriteOptions {
  /** Patch the status subresource instead of the object. */
  subresource?: "status";
}

/**
 * Typed access to one kind. Objects go in and come out as plain JSON; errors are typed
 * (NotFoundError, ConflictError, AlreadyExistsError, InvalidError, ExpiredError).
 */
export class ResourceClient<T extends KubeObject> {
  readonly kind: ResourceKind<T>;
  readonly #transport: KubeTransport;
  readonly #fieldManager: string;

  constructor(transport: KubeTransport, kind: ResourceKind<T>, fieldManager: string) {
    this.#transport = transport;
    this.kind = kind;
    this.#fieldManager = fieldManager;
  }

  get(ref: ObjectRef, options: { signal?: AbortSignal } = {}): Promise<T> {
    return this.#transport.json<T>({ method: "GET", path: objectPath(this.kind, ref), ...options });
  }

  async list(options: ListOptions & { signal?: AbortSignal } = {}): Promise<ListResult<T>> {
    const answer = await this.#transport.json<{
      items?: T[];
      metadata?: { resourceVersion?: string; continue?: string };
    }>({
      method: "GET",
      path: collectionPath(this.kind, options.namespace),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit,
        continue: options.continue,
        resourceVersion: options.resourceVersion,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const result: ListResult<T> = {
      items: answer.items ?? [],
      resourceVersion: answer.metadata?.resourceVersion ?? "",
    };
    if (answer.metadata?.continue) result.continue = answer.metadata.continue;
    return result;
  }

  /**
   * Opens a watch. Resolves once the server accepted it (an expired resourceVersion may still
   * come as an ERROR event); iterate the events until the stream ends or `signal` aborts.
   */
  async watch(options: WatchOptions): Promise<AsyncGenerator<WatchEvent<T>>> {
    const stream = await this.#transport.stream({
      path: collectionPath(this.kind, options.namespace),
      query: {
        watch: "true",
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: options.allowWatchBookmarks === false ? undefined : "true",
        timeoutSeconds: options.timeoutSeconds,
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return watchEvents<T>(stream);
  }

  create(object: T, options: WriteOptions = {}): Promise<T> {
    return this.#transport.json<T>({
      method: "POST",
      path: collectionPath(this.kind, this.#namespaceOf(object)),
      query: writeQuery(options, this.#fieldManager),
      body: this.#withTypeMeta(object),
      ...signalOf(options),
    });
  }

  /** Replaces the object; its metadata.resourceVersion makes it fail with a Conflict when stale. */
  update(object: T, options: WriteOptions = {}): Promise<T> {
    return this.#put(object, undefined, options);
  }

  /** Replaces the status (status subresource): everything else in `object` is ignored by the server. */
  updateStatus(object: T, options: WriteOptions = {}): Promise<T> {
    return this.#put(object, "status", options);
  }

  /** RFC 7386 merge patch: `null` deletes a field, lists are replaced. */
  mergePatch(ref: ObjectRef, patch: unknown, options: PatchOptions = {}): Promise<T> {
    return this.#patch(ref, contentTypes.merge, patch, options, {});
  }

  /** RFC 6902 JSON patch; a `test` op on /metadata/resourceVersion makes it conditional. */
  jsonPatch(
    ref: ObjectRef,
    operations: readonly JsonPatchOperation[],
    options: PatchOptions = {},
  ): Promise<T> {
    return this.#patch(ref, contentTypes.json, operations, options, {});
  }

  /** Server-side apply: creates the object when missing; the fields given are owned by the field manager. */
  apply(object: T, options: ApplyOptions & PatchOptions = {}): Promise<T> {
    const name = object.metadata?.name;
    if (!name) throw new Error(`server-side apply of a ${this.kind.kind} needs metadata.name`);
    const ref: ObjectRef = {
      name,
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
    };
    return this.#patch(ref, contentTypes.apply, this.#withTypeMeta(object), options, {
      force: options.force,
    });
  }

  /**
   * Deletes the object. Resolves with the object the server returned: its final state, or, when
   * finalizers keep it, the object marked with a deletionTimestamp. Undefined when the server
   * answered with a Status instead (both are allowed by the API conventions).
   */
  async delete(ref: ObjectRef, options: DeleteOptions = {}): Promise<T | undefined> {
    const answer = await this.#transport.json<T | Status>({
      method: "DELETE",
      path: objectPath(this.kind, ref),
      body: deleteBody(options),
      ...signalOf(options),
    });
    return (answer as Status).kind === "Status" ? undefined : (answer as T);
  }

  #put(object: T, subresource: "status" | undefined, options: WriteOptions): Promise<T> {
    const name = object.metadata?.name;
    if (!name) throw new Error(`an update of a ${this.kind.kind} needs metadata.name`);
    const namespace = this.#namespaceOf(object);
    return this.#transport.json<T>({
      method: "PUT",
      path: objectPath(this.kind, { name, ...(namespace ? { namespace } : {}) }, subresource),
      query: writeQuery(options, this.#fieldManager),
      body: this.#withTypeMeta(object),
      ...signalOf(options),
    });
  }

  #patch(
    ref: ObjectRef,
    contentType: string,
    body: unknown,
    options: PatchOptions,
    extra: Record<string, string | boolean | undefined>,
  ): Promise<T> {
    return this.#transport.json<T>({
      method: "PATCH",
      path: objectPath(this.kind, ref, options.subresource),
      query: { ...writeQuery(options, this.#fieldManager), ...extra },
      body,
      contentType,
      ...signalOf(options),
    });
  }

  #namespaceOf(object: T): string | undefined {
    if (!this.kind.namespaced) return undefined;
    const namespace = object.metadata?.namespace;
    if (!namespace)
      throw new Error(
        `${this.kind.kind} "${object.metadata?.name ?? ""}" is namespaced: metadata.namespace is required`,
      );
    return namespace;
  }

  #withTypeMeta(object: T): T {
    // Custom resources without kind are rejected (400); fill it in from the descriptor.
    return { ...object, apiVersion: apiVersionOf(this.kind), kind: this.kind.kind };
  }
}

function signalOf(options: { signal?: AbortSignal }): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}
