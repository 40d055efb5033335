import {
  type ControllerRevision,
  controllerRevisionKind,
  instancetypeScopeOf,
  preferenceScopeOf,
  REFERENCE_KINDS,
  type ReferenceScope,
  type StoredVirtualMachineClusterInstancetype,
  type StoredVirtualMachineClusterPreference,
  type StoredVirtualMachineInstancetype,
  type StoredVirtualMachinePreference,
} from "../../api/index.js";
import { type Frozen, isNotFound, type KubeClient, type SharedInformer } from "../../runtime/index.js";

/**
 * Where the VM controller finds what a VM references: the four instancetype.kubevirt.io kinds and
 * the ControllerRevisions, from their informers (a revision the cache has not seen yet is read
 * from the API server: it may have been created a moment ago by this controller).
 */
export interface InstancetypeInformers {
  instancetypes: Pick<SharedInformer<StoredVirtualMachineInstancetype>, "get">;
  clusterInstancetypes: Pick<SharedInformer<StoredVirtualMachineClusterInstancetype>, "get">;
  preferences: Pick<SharedInformer<StoredVirtualMachinePreference>, "get">;
  clusterPreferences: Pick<SharedInformer<StoredVirtualMachineClusterPreference>, "get">;
  revisions: Pick<SharedInformer<ControllerRevision>, "get">;
}

export type ReferenceKind = "instancetype" | "preference";

/** A live instancetype or preference, with what names it in messages. */
export interface LiveObject {
  readonly kind: string;
  readonly object: Frozen<{ metadata?: StoredVirtualMachineInstancetype["metadata"]; spec: unknown }>;
}

/** A reference that cannot be followed: the VM says so (Failure condition) and does not start. */
export class UnresolvedReference extends Error {
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UnresolvedReference";
  }
}

export const FIND_FAILURE_REASONS = {
  instancetype: "FailedFindInstancetype",
  preference: "FailedFindPreference",
} as const;

export function scopeOf(kind: ReferenceKind, matcherKind: string | undefined): ReferenceScope | undefined {
  return kind === "instancetype" ? instancetypeScopeOf(matcherKind) : preferenceScopeOf(matcherKind);
}

export class InstancetypeSources {
  readonly #informers: InstancetypeInformers;
  readonly #client: KubeClient;

  constructor(informers: InstancetypeInformers, client: KubeClient) {
    this.#informers = informers;
    this.#client = client;
  }

  /** The live object, or a UnresolvedReference with the API server's not-found message. */
  live(kind: ReferenceKind, scope: ReferenceScope, namespace: string, name: string): LiveObject {
    const definition = REFERENCE_KINDS[kind][scope];
    const key = scope === "cluster" ? name : `${namespace}/${name}`;
    const object = this.#lookup(kind, scope, key);
    if (object === undefined) {
      throw new UnresolvedReference(
        FIND_FAILURE_REASONS[kind],
        `${definition.plural}.${definition.group} "${name}" not found`,
      );
    }
    return { kind: definition.kind, object };
  }

  #lookup(kind: ReferenceKind, scope: ReferenceScope, key: string): LiveObject["object"] | undefined {
    const informers = this.#informers;
    if (kind === "instancetype") {
      return scope === "cluster" ? informers.clusterInstancetypes.get(key) : informers.instancetypes.get(key);
    }
    return scope === "cluster" ? informers.clusterPreferences.get(key) : informers.preferences.get(key);
  }

  /** A revision by name: the cache, else the API server; undefined when it does not exist. */
  async revision(namespace: string, name: string): Promise<Frozen<ControllerRevision> | undefined> {
    const cached = this.#informers.revisions.get(`${namespace}/${name}`);
    if (cached !== undefined) return cached;
    try {
      return await this.#client.resource(controllerRevisionKind).get({ namespace, name });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async createRevision(revision: ControllerRevision): Promise<ControllerRevision> {
    return this.#client.resource(controllerRevisionKind).create(revision);
  }
}
