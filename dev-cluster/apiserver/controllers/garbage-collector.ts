import type { Logger } from "pino";
import type { JsonObject } from "../json.js";
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "../objects/deletion.js";
import { finalizersOf, isBeingDeleted, meta, ownerReferencesOf, uidOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ObjectKey } from "../storage/object-store.js";
import type { ChangeEvent } from "../storage/watch-history.js";
import { KeyQueue } from "./key-queue.js";
import { keyString, parseKeyString, removeFinalizer, splitResource } from "./system-writes.js";

/**
 * Owner-reference garbage collection, in the API server's process: dependents whose owners are
 * all gone are deleted (Background); an owner deleted in the Foreground keeps its
 * `foregroundDeletion` finalizer until its blocking dependents are gone; an owner deleted with
 * Orphan has its references removed from its dependents first.
 */
export class GarbageCollector {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  /** uid → key of every stored object. */
  readonly #byUid = new Map<string, string>();
  /** owner uid → keys of the objects that name it. */
  readonly #dependents = new Map<string, Set<string>>();
  /** key → owner uids it names, to keep #dependents right when references change. */
  readonly #ownersOf = new Map<string, string[]>();
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    this.#queue = new KeyQueue(
      (key) => {
        this.#process(key);
        return {};
      },
      log.child({ controller: "garbage-collector" }),
    );
    for (const resource of service.store.resources()) {
      for (const object of service.store.list(resource)) this.#observe(resource, object, false);
    }
    this.#stopWatching = service.store.onChange((event) => this.#onChange(event));
  }

  stop(): void {
    this.#stopWatching();
    this.#queue.stop();
  }

  #onChange(event: ChangeEvent): void {
    const object = JSON.parse(event.data) as JsonObject;
    this.#observe(event.resource, object, event.type === "DELETED");
  }

  #observe(resource: string, object: JsonObject, deleted: boolean): void {
    const key = keyString({
      resource,
      namespace: String(meta(object).namespace ?? ""),
      name: String(meta(object).name ?? ""),
    });
    const uid = uidOf(object);
    for (const owner of this.#ownersOf.get(key) ?? []) this.#dependents.get(owner)?.delete(key);
    this.#ownersOf.delete(key);
    if (deleted) {
      this.#byUid.delete(uid);
      for (const dependent of this.#dependents.get(uid) ?? []) this.#queue.add(`dependent:${dependent}`);
      for (const owner of ownerReferencesOf(object)) {
        const ownerKey = this.#byUid.get(owner.uid);
        if (ownerKey) this.#queue.add(`owner:${ownerKey}`);
      }
      return;
    }
    this.#byUid.set(uid, key);
    const owners = ownerReferencesOf(object).map((ref) => ref.uid);
    if (owners.length > 0) {
      this.#ownersOf.set(key, owners);
      for (const owner of owners) {
        const set = this.#dependents.get(owner) ?? new Set<string>();
        this.#dependents.set(owner, set);
        set.add(key);
      }
      this.#queue.add(`dependent:${key}`);
    }
    const finalizers = finalizersOf(object);
    if (
      isBeingDeleted(object) &&
      (finalizers.includes(FOREGROUND_FINALIZER) || finalizers.includes(ORPHAN_FINALIZER))
    ) {
      this.#queue.add(`owner:${key}`);
    }
  }

  #process(item: string): void {
    const colon = item.indexOf(":");
    const kind = item.slice(0, colon);
    const key = parseKeyString(item.slice(colon + 1));
    if (kind === "dependent") this.#collectDependent(key);
    else this.#finishOwner(key);
  }

  #typeOf(key: ObjectKey) {
    const { group, plural } = splitResource(key.resource);
    return this.#service.registry.storageVersionOf(group, plural);
  }

  /** Deletes a dependent whose owners are all gone; drops references to owners that are gone. */
  #collectDependent(key: ObjectKey): void {
    const object = this.#service.store.get(key);
    const type = this.#typeOf(key);
    if (!object || !type) return;
    const refs = ownerReferencesOf(object);
    const alive = refs.filter((ref) => this.#byUid.has(ref.uid));
    if (refs.length === 0 || alive.length === refs.length) {
      const foregroundOwner = alive.some((ref) => this.#isForegroundDeleting(ref.uid));
      if (foregroundOwner && !isBeingDeleted(object)) {
        deleteObject(this.#service, type, key.namespace, key.name, { propagationPolicy: "Foreground" });
      }
      return;
    }
    if (alive.length === 0) {
      if (!isBeingDeleted(object))
        deleteObject(this.#service, type, key.namespace, key.name, { propagationPolicy: "Background" });
      return;
    }
    const updated = structuredClone(object);
    const aliveUids = new Set(alive.map((ref) => ref.uid));
    meta(updated).ownerReferences = (meta(object).ownerReferences as JsonObject[]).filter((ref) =>
      aliveUids.has(String(ref.uid)),
    );
    this.#service.store.commit([{ type: "put", key, object: updated }]);
  }

  #isForegroundDeleting(uid: string): boolean {
    const ownerKey = this.#byUid.get(uid);
    const owner = ownerKey ? this.#service.store.get(parseKeyString(ownerKey)) : undefined;
    return owner !== undefined && isBeingDeleted(owner) && finalizersOf(owner).includes(FOREGROUND_FINALIZER);
  }

  /** Completes an owner's Foreground or Orphan deletion once its dependents allow it. */
  #finishOwner(key: ObjectKey): void {
    const owner = this.#service.store.get(key);
    if (!owner || !isBeingDeleted(owner)) return;
    const uid = uidOf(owner);
    const dependents = [...(this.#dependents.get(uid) ?? [])].map(parseKeyString);
    const finalizers = finalizersOf(owner);
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const dependentKey of dependents) this.#dropReference(dependentKey, uid);
      removeFinalizer(this.#service.store, key, ORPHAN_FINALIZER);
      return;
    }
    if (!finalizers.includes(FOREGROUND_FINALIZER)) return;
    let blocking = 0;
    for (const dependentKey of dependents) {
      const dependent = this.#service.store.get(dependentKey);
      if (!dependent) continue;
      const ref = ownerReferencesOf(dependent).find((r) => r.uid === uid);
      if (ref?.blockOwnerDeletion) blocking++;
      this.#queue.add(`dependent:${keyString(dependentKey)}`);
    }
    if (blocking === 0) removeFinalizer(this.#service.store, key, FOREGROUND_FINALIZER);
  }

  #dropReference(key: ObjectKey, ownerUid: string): void {
    const object = this.#service.store.get(key);
    if (!object) return;
    const updated = structuredClone(object);
    const remaining = (meta(object).ownerReferences as JsonObject[]).filter((ref) => ref.uid !== ownerUid);
    if (remaining.length > 0) meta(updated).ownerReferences = remaining;
    else delete meta(updated).ownerReferences;
    this.#service.store.commit([{ type: "put", key, object: updated }]);
  }
}
