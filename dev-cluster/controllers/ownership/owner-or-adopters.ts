import {
  controllerOwnerKey,
  type Frozen,
  type KeyMapper,
  type KubeObject,
  objectKey,
  type ResourceKind,
  type SharedInformer,
  type WireLabelSelector,
} from "../../../runtime/index.js";
import { controllerOf } from "./controller-ref.js";
import { selects } from "./label-selector.js";

/** An owner that selects its children by labels (ReplicaSet, Deployment, DaemonSet). */
interface SelectingOwner extends KubeObject {
  readonly spec?: { readonly selector?: Frozen<WireLabelSelector> } | undefined;
}

/**
 * A child enqueues its controlling owner of `ownerKind`; an orphan enqueues every owner of its
 * namespace whose selector matches it, since any of them may adopt it.
 */
export function ownerOrAdopters<O extends SelectingOwner, C extends KubeObject>(
  owners: SharedInformer<O>,
  ownerKind: ResourceKind,
): KeyMapper<C> {
  const owner = controllerOwnerKey<C>(ownerKind);
  return (child) => {
    if (controllerOf(child)) return owner(child);
    return owners
      .list({ namespace: child.metadata?.namespace ?? "" })
      .filter((candidate) => selects(candidate.spec?.selector, child))
      .map(objectKey);
  };
}
