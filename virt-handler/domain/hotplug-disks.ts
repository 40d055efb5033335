// Hotplugged disks of a running VM (KubeVirt's subresource hotplug): a hotpluggable claim volume in
// the VMI's spec whose disk the live domain lacks is attached; a disk this handler hotplugged whose
// volume left the spec is detached. The claim is mounted for the VMI by virt-controller's attachment
// pod (hp-volume-*) on this node; its disk.img is opened as any claim disk (storage/claim-disk.ts) and
// QEMU opens that open file through /proc/<virt-handler>/fd/<n> (libvirt 9.0 cannot hotplug a disk of
// an fd group), so a file swapped into the claim later never reaches it. Level-based: each look
// compares the spec with the live definition, so a handler killed half way finishes the job.
import type { Logger } from "pino";
import {
  CDI_FILESYSTEM_OVERHEAD,
  isHotpluggableVolume,
  type Disk as VmiDisk,
  type Volume,
} from "../../api/index.js";
import { type Disk, diskToXml } from "../../libvirt/domain-xml/index.js";
import { type Domain, ModificationImpact } from "../../libvirt/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";
import { openClaimDisk } from "../storage/claim-disk.js";
import type { KubeletPodVolumes } from "../vmi/launcher-pod-volumes.js";
import type { ObservedDomain } from "./observed-domain.js";

/** Where a hotplugged disk's file is read from: the sign that this handler attached it. */
const HOTPLUG_SOURCE = /^\/proc\/\d+\/fd\/\d+$/;
const PREFIX_OF_BUS = { scsi: "sd", virtio: "vd" } as const;

export interface HotplugDisksOptions {
  readonly podVolumes: KubeletPodVolumes;
}

interface WantedDisk {
  readonly volumeName: string;
  readonly claimName: string;
  readonly readOnly: boolean;
  readonly disk: Frozen<VmiDisk>;
}

export class HotplugDisks {
  readonly #options: HotplugDisksOptions;

  constructor(options: HotplugDisksOptions) {
    this.#options = options;
  }

  /** Attaches what the spec added and detaches what it dropped; true when the domain changed. */
  async sync(vmi: Frozen<Vmi>, observed: ObservedDomain, log: Logger): Promise<boolean> {
    const live = observed.definition?.devices.disks ?? [];
    const liveNames = new Set(
      live.flatMap((disk) => (disk.alias?.startsWith("ua-") ? [disk.alias.slice(3)] : [])),
    );
    const wanted = wantedDisks(vmi);
    let changed = false;
    for (const want of wanted) {
      if (liveNames.has(want.volumeName)) continue;
      const attached = await this.#attach(vmi, observed.handle, want, live, log);
      changed ||= attached;
    }
    const specVolumes = new Set((vmi.spec.volumes ?? []).map((volume) => volume.name));
    for (const disk of live) {
      const name = disk.alias?.startsWith("ua-") ? disk.alias.slice(3) : undefined;
      if (name === undefined || specVolumes.has(name) || !HOTPLUG_SOURCE.test(disk.source ?? "")) continue;
      await observed.handle.detachDeviceAlias(disk.alias ?? "", ModificationImpact.Live);
      log.info({ volume: name, target: disk.target.dev }, "detached a hotplugged disk");
      changed = true;
    }
    return changed;
  }

  async #attach(
    vmi: Frozen<Vmi>,
    domain: Domain,
    want: WantedDisk,
    live: readonly Disk[],
    log: Logger,
  ): Promise<boolean> {
    const { podVolumes } = this.#options;
    const pod = podVolumes.attachmentPodsWith(vmi, want.volumeName, want.claimName)[0];
    if (pod === undefined) return false; // virt-controller's attachment pod is not running here yet
    const volume = await podVolumes.claimVolumeOfPod(pod, want.volumeName, want.claimName);
    const opened = await openClaimDisk(volume, {
      volumeName: want.volumeName,
      claimName: want.claimName,
      readOnly: want.readOnly,
      filesystemOverhead: CDI_FILESYSTEM_OVERHEAD,
    });
    try {
      const bus = want.disk.disk?.bus === "virtio" ? "virtio" : "scsi";
      const disk: Disk = {
        type: "file",
        device: "disk",
        driver: {
          name: "qemu",
          type: "raw",
          ...(want.disk.cache ? { cache: cacheOf(want.disk.cache) } : {}),
        },
        // QEMU opens the file this process holds open: the one that was checked.
        source: `/proc/${process.pid}/fd/${opened.file.fd}`,
        target: { dev: freeTarget(PREFIX_OF_BUS[bus], live), bus },
        alias: `ua-${want.volumeName}`,
        ...(want.readOnly ? { readonly: true } : {}),
        ...(want.disk.serial ? { serial: want.disk.serial } : {}),
      };
      await domain.attachDevice(diskToXml(disk), ModificationImpact.Live);
      log.info(
        {
          volume: want.volumeName,
          claim: want.claimName,
          target: disk.target.dev,
          attachmentPod: pod.metadata?.name,
        },
        "attached a hotplugged disk",
      );
      return true;
    } finally {
      await opened.file.close();
    }
  }
}

/** The VMI's hotpluggable claim volumes that have a disk. */
function wantedDisks(vmi: Frozen<Vmi>): WantedDisk[] {
  const disks = vmi.spec.domain.devices.disks ?? [];
  return (vmi.spec.volumes ?? []).flatMap((volume: Frozen<Volume>): WantedDisk[] => {
    if (!isHotpluggableVolume(volume)) return [];
    const claim = volume.persistentVolumeClaim
      ? {
          claimName: volume.persistentVolumeClaim.claimName,
          readOnly: volume.persistentVolumeClaim.readOnly === true,
        }
      : volume.dataVolume
        ? { claimName: volume.dataVolume.name, readOnly: false }
        : undefined;
    const disk = disks.find((candidate) => candidate.name === volume.name);
    if (!claim || !disk) return [];
    // Read-only if the claim volume or the disk says so (the disk's `readonly`, as at boot).
    return [
      { volumeName: volume.name, ...claim, readOnly: claim.readOnly || disk.disk?.readonly === true, disk },
    ];
  });
}

/** The first `<prefix><letter>` no live disk uses. */
function freeTarget(prefix: string, live: readonly Disk[]): string {
  const used = new Set(live.map((disk) => disk.target.dev));
  for (let index = 0; index < 26; index += 1) {
    const dev = `${prefix}${String.fromCharCode(97 + index)}`;
    if (!used.has(dev)) return dev;
  }
  throw new Error(`no free ${prefix}* target left for a hotplugged disk`);
}

function cacheOf(cache: string): "none" | "writethrough" | "writeback" {
  if (cache === "none" || cache === "writethrough" || cache === "writeback") return cache;
  throw new Error(`unknown cache mode ${cache}`);
}
