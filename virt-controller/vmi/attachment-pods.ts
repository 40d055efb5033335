// The attachment pods of one VMI, level-based: while the VMI runs on a node, each hotpluggable
// volume of its spec has one live pod holding its claim on that node (attachment-pod.ts); a pod
// whose volume left the spec goes only once virt-handler has dropped the volume's status entry, i.e.
// once QEMU let go of the disk (deleting it earlier would unmount the file under the guest); a pod
// that ended is replaced. The VMI's status entries for those volumes come from hotplug-volume-status.ts.
import { type ClaimVolume, claimVolumesOf } from "../../api/index.js";
import {
  type EventRecorder,
  type Expectations,
  type Frozen,
  isConflict,
  isNotFound,
  type KubeClient,
  type ReconcileRequest,
  type SharedInformer,
} from "../../runtime/index.js";
import { type Pod, podKind, type VirtualMachineInstance } from "../kinds.js";
import { isFinal, phaseOf } from "../vmi-phase.js";
import { attachedClaimOf, attachedVolumeOf, isAttachmentPod, renderAttachmentPod } from "./attachment-pod.js";
import { attachBlocker, type ClaimCheckDeps, type ClaimReservations } from "./claim-check.js";
import { hotplugVolumeStatus, type VolumeStatus } from "./hotplug-volume-status.js";
import type { SyncFailure } from "./vmi-lifecycle.js";
import { PODS_BY_OWNER_UID } from "./vmi-pods.js";

type AnyPod = Frozen<Pod> | Pod;

export interface AttachmentPodsDeps {
  /** virt-controller's pods, indexed by PODS_BY_OWNER_UID (and BY_CLAIM, for the claim check). */
  readonly pods: Pick<SharedInformer<Pod>, "byIndex">;
  readonly client: KubeClient;
  readonly events: EventRecorder;
  /** The VMI controller's pod expectations, per VMI key (attachment pods are the VMI's children too). */
  readonly expectations: Expectations;
  readonly launcherImage: string;
  readonly claimCheck: ClaimCheckDeps;
  readonly claimReservations: ClaimReservations;
}

/** What one sync did: the VMI's volumeStatus to write (undefined: leave it) and a failed create to retry. */
export interface AttachmentSync {
  readonly volumeStatus: VolumeStatus[] | undefined;
  readonly error?: Error;
}

export class AttachmentPods {
  readonly #deps: AttachmentPodsDeps;

  constructor(deps: AttachmentPodsDeps) {
    this.#deps = deps;
  }

  /** The VMI's attachment pods as the cache shows them. */
  of(vmi: Frozen<VirtualMachineInstance>): Frozen<Pod>[] {
    return this.#deps.pods.byIndex(PODS_BY_OWNER_UID, vmi.metadata?.uid ?? "").filter(isAttachmentPod);
  }

  /**
   * Brings the VMI's attachment pods in line with its spec (pods of a VMI that is not running on a
   * node are left as they are: a final VMI's go with its launcher pod) and says what its volume
   * status should be.
   */
  async sync(request: ReconcileRequest, vmi: Frozen<VirtualMachineInstance>): Promise<AttachmentSync> {
    const pods = this.of(vmi);
    const node = vmi.status?.nodeName;
    const attaching = phaseOf(vmi) === "Running" && node && !vmi.metadata?.deletionTimestamp && !isFinal(vmi);
    if (!attaching) return { volumeStatus: undefined };
    const wanted = claimVolumesOf(vmi.spec).filter((volume) => volume.hotpluggable);
    await this.#deleteUnneeded(request, vmi, pods, wanted);
    const podFor = new Map<string, AnyPod>();
    const blocked = new Map<string, SyncFailure>();
    const missing: ClaimVolume[] = [];
    for (const volume of wanted) {
      const pod = livePodOf(pods, volume);
      if (pod) {
        podFor.set(volume.volumeName, pod);
        continue;
      }
      const dataVolume = vmi.spec.volumes?.some((v) => v.name === volume.volumeName && v.dataVolume) ?? false;
      const blocker = attachBlocker(
        vmi,
        { claimName: volume.claimName, dataVolume },
        this.#deps.claimCheck,
        this.#deps.claimReservations,
      );
      if (blocker) blocked.set(volume.volumeName, blocker);
      else missing.push(volume);
    }
    let error: Error | undefined;
    if (missing.length > 0) {
      const created = await this.#create(request, vmi, node, missing);
      for (const pod of created.pods) podFor.set(attachedVolumeOf(pod) ?? "", pod);
      error = created.error;
    }
    const namespace = vmi.metadata?.namespace ?? "";
    const volumeStatus = hotplugVolumeStatus({
      vmi,
      podFor,
      blocked,
      claim: (name) => this.#deps.claimCheck.claims.get(`${namespace}/${name}`),
    });
    return error ? { volumeStatus, error } : { volumeStatus };
  }

  async #create(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    node: string,
    volumes: readonly ClaimVolume[],
  ): Promise<{ pods: Pod[]; error?: Error }> {
    const { client, events, expectations, launcherImage } = this.#deps;
    expectations.expectCreations(request.key, volumes.length);
    const pods: Pod[] = [];
    for (const [index, volume] of volumes.entries()) {
      try {
        pods.push(
          await client
            .resource(podKind)
            .create(renderAttachmentPod(vmi, volume, { image: launcherImage, node })),
        );
      } catch (cause) {
        // This one and the ones not tried will not show up in the cache.
        expectations.lower(request.key, volumes.length - index, 0);
        const message = `Error creating attachment pod for volume ${volume.volumeName}: ${messageOf(cause)}`;
        events.warning(vmi, "FailedCreate", message);
        return { pods, error: new Error(message, { cause }) };
      }
      const name = pods.at(-1)?.metadata?.name ?? "";
      request.log.info({ pod: name, volume: volume.volumeName }, "created a hotplug attachment pod");
      events.normal(
        vmi,
        "SuccessfulCreate",
        `Created hotplug attachment pod ${name}, for volume ${volume.volumeName}`,
      );
    }
    return { pods };
  }

  /**
   * Pods that ended (they hold nothing any more; a new one follows), and pods of volumes no longer
   * in the spec once virt-handler dropped the volume's status entry.
   */
  async #deleteUnneeded(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    pods: readonly Frozen<Pod>[],
    wanted: readonly ClaimVolume[],
  ): Promise<void> {
    const reported = new Set((vmi.status?.volumeStatus ?? []).map((entry) => entry.name));
    for (const pod of pods) {
      if (pod.metadata?.deletionTimestamp) continue;
      const volumeName = attachedVolumeOf(pod) ?? "";
      const stillWanted = wanted.some((volume) => holds(pod, volume));
      const ended = pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
      if (ended || (!stillWanted && !reported.has(volumeName)))
        await this.#delete(request, vmi, pod, volumeName);
    }
  }

  async #delete(
    request: ReconcileRequest,
    vmi: Frozen<VirtualMachineInstance>,
    pod: Frozen<Pod>,
    volumeName: string,
  ): Promise<void> {
    const ref = { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" };
    try {
      await this.#deps.client
        .resource(podKind)
        .delete(ref, { preconditions: { uid: pod.metadata?.uid ?? "" } });
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
    request.log.info({ pod: ref.name, volume: volumeName }, "deleted a hotplug attachment pod");
    this.#deps.events.normal(
      vmi,
      "SuccessfulDelete",
      `Deleted hotplug attachment pod ${ref.name}, for volume ${volumeName}`,
    );
  }
}

/** The pod holds `volume`: labelled with it and mounting its claim under its name. */
function holds(pod: AnyPod, volume: ClaimVolume): boolean {
  return (
    attachedVolumeOf(pod) === volume.volumeName &&
    attachedClaimOf(pod, volume.volumeName) === volume.claimName
  );
}

/** The volume's pod that is neither going nor gone: the newest if there are two, as virt-handler picks. */
function livePodOf(pods: readonly Frozen<Pod>[], volume: ClaimVolume): Frozen<Pod> | undefined {
  return pods
    .filter(
      (pod) =>
        holds(pod, volume) &&
        !pod.metadata?.deletionTimestamp &&
        pod.status?.phase !== "Succeeded" &&
        pod.status?.phase !== "Failed",
    )
    .sort((a, b) =>
      (b.metadata?.creationTimestamp ?? "").localeCompare(a.metadata?.creationTimestamp ?? ""),
    )[0];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
