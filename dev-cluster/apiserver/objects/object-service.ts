import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { ApiError, alreadyExists, conflict, invalid, notFound } from "../api-error.js";
import { recordUpdate } from "../apply/managed-fields.js";
import { serverSideApply } from "../apply/server-side-apply.js";
import type { JsonObject, JsonValue } from "../json.js";
import { groupVersion, type ResourceRegistry, storageResource } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import type { ObjectKey, ObjectStore } from "../storage/object-store.js";
import { decodeObject, type FieldValidation } from "./decode.js";
import {
  generatedNameSuffix,
  initialiseSystemMetadata,
  meta,
  nameOf,
  namespaceOf,
  preserveSystemMetadata,
  stringField,
} from "./object-meta.js";
import { applyPatch, type PatchType } from "./patch-body.js";
import { checkResourceVersion, isNoOp, isReadyToRemove, prepareUpdate } from "./write-preparation.js";

export interface WriteOptions {
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  /** Who makes the change, for managedFields. */
  fieldManager: string;
  /** "status" for writes to the status subresource. */
  subresource?: string;
}

export interface WriteOutcome {
  object: JsonObject;
  created: boolean;
  warnings: string[];
}

export interface ObjectServiceDeps {
  store: ObjectStore;
  registry: ResourceRegistry;
  now: () => Date;
}

/** Fields an endpoint resets are neither owned nor conflicting: status on the main resource when it is a subresource. */
function ignoredFieldsOf(type: ResourceType, subresource: string | undefined): string[][] {
  return type.statusSubresource && subresource !== "status" ? [["status"]] : [];
}

const NAMESPACES: ObjectKey = { resource: "/namespaces", namespace: "", name: "" };

function keepManagedFields(updated: JsonObject, source: JsonObject): void {
  const managedFields = meta(source).managedFields;
  if (managedFields === undefined) delete meta(updated).managedFields;
  else meta(updated).managedFields = managedFields;
}

/**
 * The operations on stored objects with kube-apiserver's semantics (defaults, validation,
 * system metadata, resourceVersion preconditions, status split, managedFields), shared by the
 * REST handlers and the server's own controllers.
 */
export class ObjectService {
  readonly #deps: ObjectServiceDeps;

  constructor(deps: ObjectServiceDeps) {
    this.#deps = deps;
  }

  get registry(): ResourceRegistry {
    return this.#deps.registry;
  }

  get store(): ObjectStore {
    return this.#deps.store;
  }

  now(): Date {
    return this.#deps.now();
  }

  key(type: ResourceType, namespace: string, name: string): ObjectKey {
    return { resource: storageResource(type), namespace: type.namespaced ? namespace : "", name };
  }

  /** The object as a client of `type`'s version sees it, or undefined. */
  find(type: ResourceType, namespace: string, name: string): JsonObject | undefined {
    const object = this.#deps.store.get(this.key(type, namespace, name));
    return object ? this.#present(type, object) : undefined;
  }

  get(type: ResourceType, namespace: string, name: string): JsonObject {
    const object = this.find(type, namespace, name);
    if (!object) throw notFound({ group: type.group, resource: type.plural, name });
    return object;
  }

  /** All objects of a resource (in `namespace` when given) and the revision they were read at. */
  list(type: ResourceType, namespace: string | undefined): { items: JsonObject[]; revision: number } {
    const revision = this.#deps.store.revision();
    const scope = type.namespaced ? namespace : undefined;
    const items = this.#deps.store.list(storageResource(type), scope).map((o) => this.#present(type, o));
    return { items, revision };
  }

  /** One page of a list without selectors: only the page's objects are read. */
  listPage(
    type: ResourceType,
    namespace: string | undefined,
    after: string | undefined,
    limit: number,
  ): { items: JsonObject[]; remaining: number; revision: number } {
    const revision = this.#deps.store.revision();
    const scope = type.namespaced ? namespace : undefined;
    const page = this.#deps.store.listPage(storageResource(type), scope, after, limit);
    return { items: page.items.map((o) => this.#present(type, o)), remaining: page.remaining, revision };
  }

  create(type: ResourceType, namespace: string, body: unknown, options: WriteOptions): WriteOutcome {
    const { object, warnings } = decodeObject(type, body, options.fieldValidation ?? "Warn");
    const metadata = meta(object);
    this.#placeInNamespace(type, object, namespace);
    const generateName = stringField(metadata, "generateName");
    if (!stringField(metadata, "name") && generateName)
      metadata.name = `${generateName}${generatedNameSuffix()}`;
    if (!stringField(metadata, "name")) {
      throw invalid(type.kind, type.group, "", [
        {
          reason: "FieldValueRequired",
          message: "Required value: name or generateName is required",
          field: "metadata.name",
        },
      ]);
    }
    if (type.statusSubresource && !type.keepsStatusOnCreate) delete object.status;
    this.#checkNamespaceAcceptsCreates(type, namespace);
    return { object: this.#storeNew(type, object, options), created: true, warnings };
  }

  update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    options: WriteOptions,
  ): WriteOutcome {
    const { object, warnings } = decodeObject(type, body, options.fieldValidation ?? "Warn");
    this.#placeInNamespace(type, object, namespace);
    this.#checkNameMatches(object, name);
    const old = this.get(type, namespace, name);
    checkResourceVersion(type, object, old);
    return { object: this.#storeUpdate(type, object, old, options), created: false, warnings };
  }

  patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: JsonValue,
    options: WriteOptions & { force?: boolean },
  ): WriteOutcome {
    if (patchType === "apply") return this.#apply(type, namespace, name, patch, options);
    const old = this.get(type, namespace, name);
    const patched = applyPatch(type, old, patchType, patch);
    const { object, warnings } = decodeObject(type, patched, options.fieldValidation ?? "Warn");
    this.#placeInNamespace(type, object, namespace);
    this.#checkNameMatches(object, name);
    // A patch that sets metadata.resourceVersion is a precondition (kubectl's managedFields migration relies on it).
    const sentVersion = meta(object).resourceVersion;
    if (sentVersion !== undefined && sentVersion !== meta(old).resourceVersion)
      checkResourceVersion(type, object, old);
    return { object: this.#storeUpdate(type, object, old, options), created: false, warnings };
  }

  #apply(
    type: ResourceType,
    namespace: string,
    name: string,
    patch: JsonValue,
    options: WriteOptions & { force?: boolean },
  ): WriteOutcome {
    const { object: applied, warnings } = decodeObject(type, patch, options.fieldValidation ?? "Warn");
    this.#placeInNamespace(type, applied, namespace);
    this.#checkNameMatches(applied, name);
    const old = this.find(type, namespace, name);
    const merged = serverSideApply(old, applied, {
      manager: options.fieldManager,
      force: options.force ?? false,
      apiVersion: groupVersion(type),
      ...(options.subresource ? { subresource: options.subresource } : {}),
      now: this.now(),
      semantics: type.fieldSemantics,
      ignoredFields: ignoredFieldsOf(type, options.subresource),
    });
    if (!old) {
      this.#checkNamespaceAcceptsCreates(type, namespace);
      if (type.statusSubresource && !type.keepsStatusOnCreate) delete merged.status;
      return { object: this.#storeNew(type, merged, options, true), created: true, warnings };
    }
    return { object: this.#storeUpdate(type, merged, old, options, true), created: false, warnings };
  }

  /**
   * Stores `object`: what a dry run of a write prepared (`prepared`, replacing `old`), as admission
   * webhooks then changed it. It is defaulted, prepared and validated again as the write was,
   * keeping the dry run's name, namespace, managedFields and (on create) uid and creation time;
   * it is stored only while the stored object is still `old` (409 Conflict otherwise), and not at
   * all with `options.dryRun`.
   */
  storeAdmitted(
    type: ResourceType,
    object: JsonObject,
    base: { prepared: JsonObject; old: JsonObject | undefined },
    options: WriteOptions,
  ): JsonObject {
    const metadata = meta(object);
    metadata.name = nameOf(base.prepared);
    if (type.namespaced) metadata.namespace = namespaceOf(base.prepared);
    else delete metadata.namespace;
    if (!base.old) {
      if (type.statusSubresource && !type.keepsStatusOnCreate) delete object.status;
      this.#checkNamespaceAcceptsCreates(type, namespaceOf(base.prepared));
      return this.#storeNew(type, object, options, true, base.prepared);
    }
    const current = this.get(type, namespaceOf(base.old), nameOf(base.old));
    if (meta(current).resourceVersion !== meta(base.old).resourceVersion)
      throw conflict({ group: type.group, resource: type.plural, name: nameOf(current) });
    return this.#storeUpdate(type, object, current, options, true);
  }

  #storeNew(
    type: ResourceType,
    object: JsonObject,
    options: WriteOptions,
    managedFieldsDone = false,
    systemMetadataOf?: JsonObject,
  ): JsonObject {
    type.applyDefaults(object);
    initialiseSystemMetadata(object, this.now());
    // An admitted write keeps the uid and creation time that its webhooks were shown.
    if (systemMetadataOf) preserveSystemMetadata(object, systemMetadataOf);
    this.#validate(type, object, undefined, undefined);
    if (!managedFieldsDone) this.#recordManagedFields(type, undefined, object, options);
    const key = this.key(type, stringField(meta(object), "namespace") ?? "", nameOf(object));
    if (this.#deps.store.get(key))
      throw alreadyExists({ group: type.group, resource: type.plural, name: key.name });
    if (options.dryRun) return object;
    const [stored] = this.#deps.store.commit([{ type: "put", key, object }]);
    return this.#present(type, stored as JsonObject);
  }

  #storeUpdate(
    type: ResourceType,
    object: JsonObject,
    old: JsonObject,
    options: WriteOptions,
    managedFieldsDone = false,
  ): JsonObject {
    type.applyDefaults(object);
    const updated = prepareUpdate(type, object, old, options.subresource);
    // managedFields computed before (by apply, or by an admitted write's dry run) survive the status split.
    if (managedFieldsDone) keepManagedFields(updated, object);
    this.#validate(type, updated, old, options.subresource);
    if (isNoOp(updated, old)) return old;
    // A client that rewrites managedFields itself (kubectl's migration to server-side apply) is
    // obeyed. One that leaves them out (or sends an empty list) keeps the stored ones, as upstream:
    // a client that does not know managedFields must not wipe them.
    const sentList = meta(updated).managedFields;
    const managedFieldsSent =
      Array.isArray(sentList) && sentList.length > 0 && !jsonEqual(sentList, meta(old).managedFields);
    if (!managedFieldsDone && !managedFieldsSent) this.#recordManagedFields(type, old, updated, options);
    if (options.dryRun) return updated;
    const key = this.key(type, stringField(meta(old), "namespace") ?? "", nameOf(old));
    if (isReadyToRemove(updated)) {
      const [removed] = this.#deps.store.commit([{ type: "delete", key, object: updated }]);
      return this.#present(type, removed as JsonObject);
    }
    const [stored] = this.#deps.store.commit([{ type: "put", key, object: updated }]);
    return this.#present(type, stored as JsonObject);
  }

  #recordManagedFields(
    type: ResourceType,
    old: JsonObject | undefined,
    updated: JsonObject,
    options: WriteOptions,
  ): void {
    const entries = recordUpdate(old, updated, {
      manager: options.fieldManager,
      apiVersion: groupVersion(type),
      ...(options.subresource ? { subresource: options.subresource } : {}),
      now: this.now(),
      semantics: type.fieldSemantics,
      ignoredFields: ignoredFieldsOf(type, options.subresource),
    });
    const metadata = meta(updated);
    if (entries.length > 0) metadata.managedFields = entries as unknown as JsonValue;
    else delete metadata.managedFields;
  }

  #validate(
    type: ResourceType,
    object: JsonObject,
    old: JsonObject | undefined,
    subresource: string | undefined,
  ): void {
    const causes =
      subresource === "status" && old ? type.validateStatus(object, old) : type.validate(object, old);
    if (causes.length > 0) throw invalid(type.kind, type.group, nameOf(object), causes);
  }

  /** Sets (or checks) the object's namespace from the URL. */
  #placeInNamespace(type: ResourceType, object: JsonObject, namespace: string): void {
    const metadata = meta(object);
    if (!type.namespaced) {
      delete metadata.namespace;
      return;
    }
    const sent = stringField(metadata, "namespace");
    if (sent && sent !== namespace) {
      throw new ApiError(
        400,
        "BadRequest",
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    metadata.namespace = namespace;
  }

  #checkNameMatches(object: JsonObject, name: string): void {
    const sent = stringField(meta(object), "name");
    if (sent === undefined || sent === "") {
      meta(object).name = name;
      return;
    }
    if (sent !== name) {
      throw new ApiError(
        400,
        "BadRequest",
        `the name of the object (${sent}) does not match the name on the URL (${name})`,
      );
    }
  }

  #checkNamespaceAcceptsCreates(type: ResourceType, namespace: string): void {
    if (!type.namespaced) return;
    const ns = this.#deps.store.get({ ...NAMESPACES, name: namespace });
    if (!ns) throw notFound({ group: "", resource: "namespaces", name: namespace });
    if (meta(ns).deletionTimestamp) {
      throw new ApiError(
        403,
        "Forbidden",
        `${type.plural}${type.group ? `.${type.group}` : ""} "${nameOf(ns)}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  }

  /** What a reader of `type`'s version gets: the version's apiVersion and the current defaults. */
  #present(type: ResourceType, object: JsonObject): JsonObject {
    object.apiVersion = groupVersion(type);
    if (!type.builtin) type.applyDefaults(object);
    return object;
  }
}
