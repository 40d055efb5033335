import { type Frozen, type KubeObject, objectKey, type SharedInformer } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "../kinds.js";
import type { VolumeLookup } from "./pod-volume-claims.js";

interface Assumed<T> {
  readonly object: Frozen<T>;
  /** The resourceVersion the assumed object was derived from: any other one in the informer is newer. */
  readonly baseVersion: string;
}

/**
 * kube's AssumeCache for one kind: the objects this scheduler is about to write (a volume's
 * claimRef, a claim's selected-node), shown in place of the informer's copy until the informer
 * has any newer version, so that the next scheduling cycle, running while the write is in
 * flight, does not hand the same volume to a second claim.
 */
export class AssumedObjects<T extends KubeObject> {
  readonly #informer: SharedInformer<T>;
  readonly #assumed = new Map<string, Assumed<T>>();

  constructor(informer: SharedInformer<T>) {
    this.#informer = informer;
  }

  /** The informer's copy, without assumptions: what the API server has said. */
  live(key: string): Frozen<T> | undefined {
    return this.#informer.get(key);
  }

  get(key: string): Frozen<T> | undefined {
    const live = this.#informer.get(key);
    const assumed = this.#assumed.get(key);
    if (!assumed) return live;
    if (!live || (live.metadata?.resourceVersion ?? "") !== assumed.baseVersion) {
      this.#assumed.delete(key);
      return live;
    }
    return assumed.object;
  }

  list(): Frozen<T>[] {
    return this.#informer.list().map((live) => this.get(objectKey(live)) ?? live);
  }

  /** `object` is the informer's copy changed as it is about to be written (same resourceVersion). */
  assume(key: string, object: Frozen<T>): void {
    this.#assumed.set(key, { object, baseVersion: object.metadata?.resourceVersion ?? "" });
  }

  restore(key: string): void {
    this.#assumed.delete(key);
  }
}

export class AssumedStorage implements VolumeLookup {
  readonly claims: AssumedObjects<PersistentVolumeClaim>;
  readonly pvs: AssumedObjects<PersistentVolume>;
  readonly #classes: SharedInformer<StorageClass>;

  constructor(informers: {
    claims: SharedInformer<PersistentVolumeClaim>;
    volumes: SharedInformer<PersistentVolume>;
    classes: SharedInformer<StorageClass>;
  }) {
    this.claims = new AssumedObjects(informers.claims);
    this.pvs = new AssumedObjects(informers.volumes);
    this.#classes = informers.classes;
  }

  claim(namespace: string, name: string): Frozen<PersistentVolumeClaim> | undefined {
    return this.claims.get(`${namespace}/${name}`);
  }

  volume(name: string): Frozen<PersistentVolume> | undefined {
    return this.pvs.get(name);
  }

  volumes(): readonly Frozen<PersistentVolume>[] {
    return this.pvs.list();
  }

  storageClass(name: string): Frozen<StorageClass> | undefined {
    return this.#classes.get(name);
  }
}
