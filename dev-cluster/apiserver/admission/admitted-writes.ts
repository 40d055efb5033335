import type { IncomingMessage } from "node:http";
import { ApiError, internalError } from "../api-error.js";
import type { UserInfo } from "../auth/authenticator.js";
import type { JsonObject } from "../json.js";
import { type DeleteOptions, deleteObject } from "../objects/deletion.js";
import { nameOf, namespaceOf, uidOf } from "../objects/object-meta.js";
import type { ObjectService, WriteOutcome } from "../objects/object-service.js";
import type { ObjectWrites } from "../objects/object-writes.js";
import { writeOptionsOf } from "../objects/stored-writes.js";
import {
  asDryRun,
  type CreateRequest,
  type DeleteCollectionRequest,
  type DeleteRequest,
  type PatchRequest,
  type UpdateRequest,
} from "../objects/write-request.js";
import { groupVersion } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import { type AdmissionAttributes, isNamespaceResource } from "./admission-attributes.js";
import type { AdmissionOperation } from "./webhook-configuration.js";
import type { WebhookDispatcher } from "./webhook-dispatcher.js";

type ObjectWrite = CreateRequest | UpdateRequest | PatchRequest;

type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions";

/** How often a write whose object changed while its webhooks ran is started over (GuaranteedUpdate retries too). */
const MAX_ATTEMPTS = 5;

/** The stored object changed while the webhooks ran; `cause` is the 409 Conflict. */
class ChangedMeanwhile extends Error {
  constructor(conflict: ApiError) {
    super(conflict.message, { cause: conflict });
  }
}

/** Stores, turning a Conflict (the object changed since the dry run) into ChangedMeanwhile. */
function storeUnlessChanged(store: () => JsonObject): JsonObject {
  try {
    return store();
  } catch (error) {
    if (error instanceof ApiError && error.reason === "Conflict") throw new ChangedMeanwhile(error);
    throw error;
  }
}

/** The meta.k8s.io/v1 options object a review carries: what the client sent. */
function operationOptions(kind: OptionsKind, write: ObjectWrite, dryRun: boolean): JsonObject {
  const options: JsonObject = { kind, apiVersion: "meta.k8s.io/v1" };
  const { fieldManager, fieldValidation } = write.options.sent;
  if (fieldManager) options.fieldManager = fieldManager;
  if (fieldValidation) options.fieldValidation = fieldValidation;
  if (dryRun) options.dryRun = ["All"];
  if (kind === "PatchOptions" && write.verb === "patch" && write.force) options.force = true;
  return options;
}

function deleteOptionsObject(options: DeleteOptions): JsonObject {
  const object: JsonObject = { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1" };
  if (options.propagationPolicy) object.propagationPolicy = options.propagationPolicy;
  if (options.gracePeriodSeconds !== undefined) object.gracePeriodSeconds = options.gracePeriodSeconds;
  if (options.preconditions) object.preconditions = { ...options.preconditions };
  if (options.dryRun) object.dryRun = ["All"];
  return object;
}

/** The namespace admission sees: a Namespace's own name for Namespaces, "" for other cluster-scoped objects. */
function admissionNamespace(type: ResourceType, object: JsonObject): string {
  if (isNamespaceResource({ type })) return nameOf(object);
  return type.namespaced ? namespaceOf(object) : "";
}

export interface AdmittedWritesDeps {
  /** The writes admitted ones go to when no webhook applies, and that compute their dry runs. */
  inner: ObjectWrites;
  /** Reads the objects webhooks are shown, and stores what they admitted. */
  service: ObjectService;
  dispatcher: WebhookDispatcher;
  /** Who a request acts as (set by the authentication and authorization step). */
  userOf: (request: IncomingMessage) => UserInfo;
}

/**
 * The REST writes (create, update, patch incl. server-side apply, delete, deletecollection)
 * with admission webhooks in between, as in kube-apiserver's handlers: a dry run of the write
 * computes the object to store (decoding, defaults, the patch, system metadata, managedFields,
 * validation); mutating webhooks change it, it is validated again, validating webhooks judge it,
 * and it is stored only if the stored object has not changed meanwhile (409 Conflict otherwise).
 * A write no webhook applies to goes to the inner writes unchanged.
 */
export class AdmittedWrites implements ObjectWrites {
  readonly #deps: AdmittedWritesDeps;

  constructor(deps: AdmittedWritesDeps) {
    this.#deps = deps;
  }

  create(write: CreateRequest): Promise<WriteOutcome> {
    return this.#write(write, ["CREATE"], "CreateOptions", (w) => this.#deps.inner.create(w));
  }

  update(write: UpdateRequest): Promise<WriteOutcome> {
    return this.#write(write, ["UPDATE"], "UpdateOptions", (w) => this.#deps.inner.update(w));
  }

  /** A patch is an UPDATE, or a CREATE when server-side apply creates the object. */
  patch(write: PatchRequest): Promise<WriteOutcome> {
    return this.#write(write, ["UPDATE", "CREATE"], "PatchOptions", (w) => this.#deps.inner.patch(w));
  }

  async delete(write: DeleteRequest): Promise<JsonObject> {
    const { service, dispatcher } = this.#deps;
    const { type, namespace, name = "" } = write.target;
    if (!dispatcher.mayApply({ type, subresource: "", namespace }, ["DELETE"]))
      return this.#deps.inner.delete(write);
    const current = service.get(type, namespace, name);
    await this.#admitDelete(type, current, write.options, write.requester);
    return this.#deleteAdmitted(type, current, write.options);
  }

  /** Each object of the collection is admitted (and deleted) on its own, as the store's DeleteCollection does. */
  async deleteCollection(write: DeleteCollectionRequest): Promise<JsonObject> {
    const { service, dispatcher } = this.#deps;
    const { type, namespace, namespaced } = write.target;
    if (!dispatcher.mayApply({ type, subresource: "", namespace }, ["DELETE"])) {
      return this.#deps.inner.deleteCollection(write);
    }
    const deleted: JsonObject[] = [];
    for (const object of service.list(type, namespaced ? namespace : undefined).items.filter(write.filter)) {
      await this.#admitDelete(type, object, write.options, write.requester);
      deleted.push(this.#deleteAdmitted(type, object, write.options));
    }
    return { kind: type.listKind, apiVersion: groupVersion(type), metadata: {}, items: deleted };
  }

  async #write<W extends ObjectWrite>(
    write: W,
    operations: AdmissionOperation[],
    optionsKind: OptionsKind,
    run: (write: W) => Promise<WriteOutcome>,
  ): Promise<WriteOutcome> {
    const { type, namespace, subresource = "" } = write.target;
    if (!this.#deps.dispatcher.mayApply({ type, subresource, namespace }, operations)) return run(write);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#admitWrite(write, optionsKind, run);
      } catch (error) {
        // The object changed while the webhooks ran: start over from it, as kube-apiserver's
        // GuaranteedUpdate does. A stale resourceVersion the client sent fails the next dry run.
        if (!(error instanceof ChangedMeanwhile)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw error.cause;
      }
    }
  }

  async #admitWrite<W extends ObjectWrite>(
    write: W,
    optionsKind: OptionsKind,
    run: (write: W) => Promise<WriteOutcome>,
  ): Promise<WriteOutcome> {
    const { service, dispatcher } = this.#deps;
    const { type, namespace, name, subresource = "" } = write.target;
    const options = writeOptionsOf(write);
    // Read in the same turn as the dry run (the inner writes run when called), so it is the object the dry run replaced.
    const old = name === undefined ? undefined : service.find(type, namespace, name);
    const prepared = await run(asDryRun(write));
    const base = { prepared: prepared.object, old: prepared.created ? undefined : old };
    if (!prepared.created && !old) throw internalError("the object an update replaced is gone");
    const dryRun = options.dryRun === true;
    const attributes: AdmissionAttributes = {
      operation: prepared.created ? "CREATE" : "UPDATE",
      type,
      subresource,
      name: nameOf(prepared.object),
      namespace: admissionNamespace(type, prepared.object),
      object: prepared.object,
      oldObject: base.old,
      dryRun,
      options: operationOptions(
        prepared.created && optionsKind === "PatchOptions" ? "CreateOptions" : optionsKind,
        write,
        dryRun,
      ),
      user: this.#deps.userOf(write.requester),
    };
    const mutation = await dispatcher.mutate(attributes);
    let admitted = prepared.object;
    if (mutation.object && mutation.object !== prepared.object) {
      // The webhooks' object is defaulted, prepared and validated as the request's was.
      const mutated = structuredClone(mutation.object);
      admitted = storeUnlessChanged(() =>
        service.storeAdmitted(type, mutated, base, { ...options, dryRun: true }),
      );
    }
    const validationWarnings = await dispatcher.validate({ ...attributes, object: admitted });
    const warnings = [...prepared.warnings, ...mutation.warnings, ...validationWarnings];
    if (dryRun) return { object: admitted, created: prepared.created, warnings };
    const stored = storeUnlessChanged(() =>
      service.storeAdmitted(type, structuredClone(admitted), base, options),
    );
    return { object: stored, created: prepared.created, warnings };
  }

  async #admitDelete(
    type: ResourceType,
    current: JsonObject,
    options: DeleteOptions,
    request: IncomingMessage,
  ): Promise<void> {
    const attributes: AdmissionAttributes = {
      operation: "DELETE",
      type,
      subresource: "",
      name: nameOf(current),
      namespace: admissionNamespace(type, current),
      object: undefined,
      oldObject: current,
      dryRun: options.dryRun === true,
      options: deleteOptionsObject(options),
      user: this.#deps.userOf(request),
    };
    await this.#deps.dispatcher.mutate(attributes);
    await this.#deps.dispatcher.validate(attributes);
  }

  /** Deletes the object the webhooks were shown, and not a later one of the same name. */
  #deleteAdmitted(type: ResourceType, current: JsonObject, options: DeleteOptions): JsonObject {
    const preconditions = { uid: uidOf(current), ...options.preconditions };
    return deleteObject(this.#deps.service, type, namespaceOf(current), nameOf(current), {
      ...options,
      preconditions,
    });
  }
}
