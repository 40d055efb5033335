/**
 * Keeps the common instancetypes and preferences as the strategy renders them: applies the
 * missing, outdated and hand-edited ones (server-side apply, field manager virt-operator, as
 * every managed object) and deletes the operator's that the strategy no longer holds (all of
 * them once `commonInstancetypesDeployment.enabled` is false).
 *
 * Unlike the strategy's other objects these are not watched: their CRDs are among the objects the
 * operator installs, and an informer of a kind that does not exist yet would never sync, which
 * would keep the operator from ever starting its workers. So each pass lists them (two list
 * calls), once the rest of the install is complete; an edit by hand is repaired on the next pass.
 */
import type { Logger } from "pino";
import { INSTANCETYPE_GROUP, INSTANCETYPE_VERSION } from "../../api/index.js";
import {
  defineKind,
  type EventRecorder,
  type Frozen,
  isConflict,
  isNotFound,
  type KubeClient,
  type ResourceKind,
} from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { isSubsetOf } from "../kubevirt/is-subset-of.js";
import type { InstalledObject } from "../kubevirt/managed-kinds.js";
import { applyReason, isInstalledByOperator, stampedObject } from "../kubevirt/object-drift.js";
import {
  type InstallStrategy,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  type ManagedObject,
  OPERATOR_FIELD_MANAGER,
} from "../strategy/install-strategy.js";
import { COMMON_LABELS, COMMON_VENDOR } from "./common-labels.js";
import { CLUSTER_INSTANCETYPE_KIND, CLUSTER_PREFERENCE_KIND } from "./render-common-instancetypes.js";

const clusterKind = (kind: string, plural: string): ResourceKind<InstalledObject> =>
  defineKind<InstalledObject>({
    group: INSTANCETYPE_GROUP,
    version: INSTANCETYPE_VERSION,
    kind,
    plural,
    namespaced: false,
  });

/** The two kinds of the common set, in apply order. */
export const COMMON_SET_KINDS: readonly ResourceKind<InstalledObject>[] = [
  clusterKind(CLUSTER_INSTANCETYPE_KIND, "virtualmachineclusterinstancetypes"),
  clusterKind(CLUSTER_PREFERENCE_KIND, "virtualmachineclusterpreferences"),
];

const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;

export interface CommonSetPass {
  readonly kubevirt: Frozen<KubeVirt>;
  readonly strategy: InstallStrategy;
  /** The common set the strategy renders; empty when the CR disables it. */
  readonly desired: readonly ManagedObject[];
  readonly log: Logger;
  readonly signal: AbortSignal;
}

/** What the last apply of one object left: not re-applied while it stays so (see Installer). */
interface AppliedMemo {
  resourceVersion: string | undefined;
  strategyId: string;
}

export class CommonInstancetypesSync {
  readonly #client: KubeClient;
  readonly #events: EventRecorder;
  /** Objects the server did not keep exactly as applied (e.g. a normalised quantity). */
  readonly #unconverged = new Map<string, AppliedMemo>();

  constructor(client: KubeClient, events: EventRecorder) {
    this.#client = client;
    this.#events = events;
  }

  async sync(pass: CommonSetPass): Promise<void> {
    let applied = 0;
    let deleted = 0;
    for (const kind of COMMON_SET_KINDS) {
      const live = await this.#list(kind, pass.signal);
      const wanted = pass.desired.filter((object) => object.kind === kind.kind);
      for (const object of wanted) {
        if (await this.#applyIfNeeded(pass, kind, object, live.get(object.metadata.name))) applied++;
      }
      const names = new Set(wanted.map((object) => object.metadata.name));
      for (const [name, object] of live) {
        if (names.has(name) || !isCommonSetObject(object)) continue;
        if (await this.#delete(kind, object, pass.signal)) deleted++;
      }
    }
    if (applied > 0) {
      pass.log.info({ applied }, "applied common instancetypes and preferences");
      this.#events.normal(
        pass.kubevirt,
        "CommonInstancetypesApplied",
        `Applied ${applied} common instancetypes and preferences (${pass.strategy.version})`,
      );
    }
    if (deleted > 0) {
      pass.log.info({ deleted }, "deleted common instancetypes and preferences the strategy no longer holds");
      this.#events.normal(
        pass.kubevirt,
        "CommonInstancetypesDeleted",
        `Deleted ${deleted} common instancetypes and preferences: no longer part of the install`,
      );
    }
  }

  async #list(
    kind: ResourceKind<InstalledObject>,
    signal: AbortSignal,
  ): Promise<Map<string, InstalledObject>> {
    try {
      const list = await this.#client.resource(kind).list({ labelSelector: MANAGED_SELECTOR, signal });
      return new Map(list.items.map((item) => [item.metadata?.name ?? "", item]));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot list the ${kind.plural} virt-operator installed: ${why}`, { cause: error });
    }
  }

  /** Applies `object` unless the live one is as wanted; true when it wrote. */
  async #applyIfNeeded(
    pass: CommonSetPass,
    kind: ResourceKind<InstalledObject>,
    object: ManagedObject,
    live: InstalledObject | undefined,
  ): Promise<boolean> {
    const desired = stampedObject(object, pass.strategy);
    if (!applyReason(desired, live as Frozen<InstalledObject> | undefined, pass.strategy.id)) return false;
    const key = `${kind.kind}/${object.metadata.name}`;
    const memo = this.#unconverged.get(key);
    if (
      live &&
      memo?.strategyId === pass.strategy.id &&
      memo.resourceVersion === live.metadata?.resourceVersion
    )
      return false;
    let result: InstalledObject;
    try {
      result = await this.#client.resource(kind).apply(desired as InstalledObject, {
        force: true,
        fieldManager: OPERATOR_FIELD_MANAGER,
        signal: pass.signal,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot apply ${kind.kind} ${object.metadata.name}: ${why}`, { cause: error });
    }
    const { apiVersion: _apiVersion, kind: _kind, ...fields } = desired;
    if (isSubsetOf(fields, result)) this.#unconverged.delete(key);
    else {
      this.#unconverged.set(key, {
        resourceVersion: result.metadata?.resourceVersion,
        strategyId: pass.strategy.id,
      });
      pass.log.warn(
        { object: key },
        "the server does not keep the object as applied: it is left as it is until it changes",
      );
    }
    return result.metadata?.resourceVersion !== live?.metadata?.resourceVersion;
  }

  async #delete(
    kind: ResourceKind<InstalledObject>,
    object: InstalledObject,
    signal: AbortSignal,
  ): Promise<boolean> {
    const { name, uid } = object.metadata ?? {};
    if (!name) return false;
    try {
      await this.#client
        .resource(kind)
        .delete({ name }, { ...(uid ? { preconditions: { uid } } : {}), signal });
      this.#unconverged.delete(`${kind.kind}/${name}`);
      return true;
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return false;
      throw new Error(`cannot delete ${kind.kind} ${name}`, { cause: error });
    }
  }
}

/** One of ours: installed by the operator from a strategy, and of the common set's vendor. */
function isCommonSetObject(object: InstalledObject): boolean {
  return (
    isInstalledByOperator(object as Frozen<InstalledObject>) &&
    object.metadata?.labels?.[COMMON_LABELS.vendor] === COMMON_VENDOR
  );
}
