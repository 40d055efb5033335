// What the handler's controllers need from the VMI → domain conversion, as an interface: the
// controllers are wired to the converter and volume preparation in main.ts (and tests can wrap
// them). The implementation over virt-handler/converter and virt-handler/storage is
// converter-domain-factory.ts.
import type { FileHandle } from "node:fs/promises";
import type { DomainDefinition } from "../../libvirt/domain-xml/index.js";
import type { Vmi } from "../kinds.js";
import type { LauncherPodVolumes } from "../storage/index.js";

/** The VMI a domain belongs to, as the converter records it in the domain's metadata. */
export interface VmiIdentity {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
}

export interface BuildOptions {
  /** The VM's own directory: overlays, cloud-init images, sockets and logs go there. */
  readonly vmDir: string;
  /** Run under TCG (`<domain type='qemu'>`) instead of KVM. */
  readonly emulation: boolean;
  /** The VMI's launcher pod volumes on this node (the Secrets its cloud-init references). */
  readonly podVolumes?: LauncherPodVolumes | undefined;
}

/** A VMI's domain, with the files QEMU must be given open (disk fd groups) rather than by path. */
export interface BuiltDomain {
  readonly definition: DomainDefinition;
  /** By fd group name (a disk's `<source fdgroup>`): associate them with the domain before it starts. */
  readonly fdGroups: ReadonlyMap<string, FileHandle>;
  /** Closes those files: once libvirt has its own copies, or when the start is given up. */
  release(): Promise<void>;
}

export interface VmiDomainFactory {
  /** The libvirt domain name of a VMI (KubeVirt's "<namespace>_<name>"). */
  domainName(vmi: { metadata?: { namespace?: string; name?: string } }): string;
  /**
   * Prepares the VM's files in `vmDir` and returns its domain. Throws VmiStartError when the VMI
   * can never run as it is (retrying cannot help); any other error is worth retrying.
   */
  build(vmi: Vmi, options: BuildOptions): Promise<BuiltDomain>;
  /** The VMI a domain definition was made for, or undefined when it is not a VMI's domain. */
  identify(definition: DomainDefinition): VmiIdentity | undefined;
  /** Removes the VM's directory and everything in it; idempotent. */
  removeFiles(vmDir: string): Promise<void>;
}

/** A VMI that cannot run as specified; `reason` becomes the Failed VMI's reason. */
export class VmiStartError extends Error {
  override readonly name = "VmiStartError";

  constructor(
    readonly reason: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * An image of the VMI could not be pulled (the registry refused it, does not have it, or cannot be
 * reached). Worth retrying with back-off, as the kubelet retries a pull: the VMI waits, showing
 * ErrImagePull and then ImagePullBackOff (KubeVirt's printable statuses).
 */
export class VmiImagePullError extends Error {
  override readonly name = "VmiImagePullError";

  constructor(
    /** "ErrImagePull", or "ErrImageNeverPull" for an image missing under pullPolicy Never. */
    readonly reason: "ErrImagePull" | "ErrImageNeverPull",
    readonly image: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
