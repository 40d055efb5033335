import type { JsonObject } from "../json.js";
import { groupVersion } from "../registry/resource-registry.js";
import { deleteObject } from "./deletion.js";
import { nameOf, namespaceOf } from "./object-meta.js";
import type { ObjectService, WriteOptions, WriteOutcome } from "./object-service.js";
import type { ObjectWrites } from "./object-writes.js";
import type {
  CreateRequest,
  DeleteCollectionRequest,
  DeleteRequest,
  PatchRequest,
  UpdateRequest,
} from "./write-request.js";

/** The object service's options for a decoded write. */
export function writeOptionsOf(write: CreateRequest | UpdateRequest | PatchRequest): WriteOptions {
  const { dryRun, fieldManager, fieldValidation } = write.options;
  const options: WriteOptions = { fieldManager, fieldValidation };
  if (dryRun) options.dryRun = true;
  if (write.target.subresource) options.subresource = write.target.subresource;
  return options;
}

/**
 * The writes straight to the object service, with no admission in between. Each runs in the
 * turn it is called (the promise only carries the result), so a caller that reads the stored
 * object just before sees the object the write replaced.
 */
export class StoredWrites implements ObjectWrites {
  readonly #service: ObjectService;

  constructor(service: ObjectService) {
    this.#service = service;
  }

  async create(write: CreateRequest): Promise<WriteOutcome> {
    const { type, namespace } = write.target;
    return this.#service.create(type, namespace, write.object, writeOptionsOf(write));
  }

  async update(write: UpdateRequest): Promise<WriteOutcome> {
    const { type, namespace, name = "" } = write.target;
    return this.#service.update(type, namespace, name, write.object, writeOptionsOf(write));
  }

  async patch(write: PatchRequest): Promise<WriteOutcome> {
    const { type, namespace, name = "" } = write.target;
    return this.#service.patch(type, namespace, name, write.patchType, write.patch, {
      ...writeOptionsOf(write),
      force: write.force,
    });
  }

  async delete(write: DeleteRequest): Promise<JsonObject> {
    const { type, namespace, name = "" } = write.target;
    return deleteObject(this.#service, type, namespace, name, write.options);
  }

  async deleteCollection(write: DeleteCollectionRequest): Promise<JsonObject> {
    const { type, namespace, namespaced } = write.target;
    const deleted = this.#service
      .list(type, namespaced ? namespace : undefined)
      .items.filter(write.filter)
      .map((object) => deleteObject(this.#service, type, namespaceOf(object), nameOf(object), write.options));
    return { kind: type.listKind, apiVersion: groupVersion(type), metadata: {}, items: deleted };
  }
}
