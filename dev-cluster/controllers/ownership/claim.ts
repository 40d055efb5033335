import {
  type Frozen,
  isNotFound,
  type JsonPatchOperation,
  type KubeObject,
  type LabelSelector,
  labelsMatch,
  type ResourceClient,
  type ResourceKind,
} from "../../../runtime/index.js";
import { controllerOf, controllerRefTo } from "./controller-ref.js";

export interface ClaimRequest<T extends KubeObject> {
  owner: Frozen<KubeObject>;
  ownerKind: ResourceKind;
  selector: LabelSelector;
  /** Candidates: the children's namespace, already narrowed as the caller likes. */
  candidates: readonly Frozen<T>[];
  children: ResourceClient<T>;
}

/**
 * kube's ControllerRefManager: returns the children `owner` controls after adopting the orphans
 * its selector matches and releasing the children it no longer matches. An owner being deleted
 * adopts nothing and releases nothing. Adoption and release are JSON patches conditional on the
 * child's resourceVersion, so a stale cache makes them fail (and the reconcile retry) rather
 * than take a child another controller adopted meanwhile.
 */
export async function claimChildren<T extends KubeObject>(request: ClaimRequest<T>): Promise<Frozen<T>[]> {
  const { owner, selector } = request;
  const ownerUid = owner.metadata?.uid ?? "";
  const ownerDeleting = owner.metadata?.deletionTimestamp !== undefined;
  const claimed: Frozen<T>[] = [];
  for (const child of request.candidates) {
    const controller = controllerOf(child);
    const matches = labelsMatch(selector, child.metadata?.labels);
    if (controller) {
      if (controller.uid !== ownerUid) continue;
      if (matches || ownerDeleting) claimed.push(child);
      else await release(request, child);
      continue;
    }
    if (!matches || ownerDeleting || child.metadata?.deletionTimestamp) continue;
    const adopted = await adopt(request, child);
    if (adopted) claimed.push(adopted as Frozen<T>);
  }
  return claimed;
}

async function adopt<T extends KubeObject>(
  request: ClaimRequest<T>,
  child: Frozen<T>,
): Promise<T | undefined> {
  const reference = controllerRefTo(request.owner, request.ownerKind);
  const existing = child.metadata?.ownerReferences;
  const operations: JsonPatchOperation[] = [
    { op: "test", path: "/metadata/resourceVersion", value: child.metadata?.resourceVersion },
    existing
      ? { op: "add", path: "/metadata/ownerReferences/-", value: reference }
      : { op: "add", path: "/metadata/ownerReferences", value: [reference] },
  ];
  try {
    return await request.children.jsonPatch(refOf(child), operations);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw new Error(`cannot adopt ${request.children.kind.kind} ${child.metadata?.name ?? ""}`, {
      cause: error,
    });
  }
}

async function release<T extends KubeObject>(request: ClaimRequest<T>, child: Frozen<T>): Promise<void> {
  const index = child.metadata?.ownerReferences?.findIndex(
    (reference) => reference.uid === request.owner.metadata?.uid,
  );
  if (index === undefined || index < 0) return;
  try {
    await request.children.jsonPatch(refOf(child), [
      { op: "test", path: "/metadata/resourceVersion", value: child.metadata?.resourceVersion },
      { op: "remove", path: `/metadata/ownerReferences/${index}` },
    ]);
  } catch (error) {
    if (isNotFound(error)) return;
    throw new Error(`cannot release ${request.children.kind.kind} ${child.metadata?.name ?? ""}`, {
      cause: error,
    });
  }
}

function refOf(object: Frozen<KubeObject>): { namespace?: string; name: string } {
  const namespace = object.metadata?.namespace;
  return { name: object.metadata?.name ?? "", ...(namespace ? { namespace } : {}) };
}
