// VmiDomainFactory over the converter and volume preparation (virt-handler/converter, storage):
// volumes become files in the VM's directory, then the VMI becomes a domain definition.
import { join } from "node:path";
import type { DomainDefinition } from "../../libvirt/domain-xml/index.js";
import { ContainerDiskError, type ContainerDiskSource } from "../container-disk/index.js";
import {
  convertVmi,
  domainNameOf,
  refuseUnconfinedValues,
  VmiConversionError,
  vmiUidFromDomain,
} from "../converter/index.js";
import type { Vmi } from "../kinds.js";
import { closeOpenedDisks, prepareVolumes, removeVmFiles } from "../storage/index.js";
import { AGENT_SOCKET_NAME, PASST_SOCKET_NAME, VNC_SOCKET_NAME } from "./socket-paths.js";
import {
  type BuildOptions,
  type BuiltDomain,
  type VmiDomainFactory,
  type VmiIdentity,
  VmiImagePullError,
  VmiStartError,
} from "./vmi-domain-factory.js";

export interface ConverterDomainFactoryOptions {
  /** Where containerDisk and kernelBoot images come from (configuration: the local store on the dev cluster). */
  readonly images: ContainerDiskSource;
  /** Whether OVMF is installed (EFI VMIs are refused without it). */
  readonly efiFirmwareAvailable: boolean;
}

/** Conversion failures that retrying cannot fix (the VMI fails); others (a failed file write) are retried. */
const RETRYABLE_REASONS: ReadonlySet<string> = new Set(["VolumePreparationFailed"]);

export class ConverterDomainFactory implements VmiDomainFactory {
  readonly #options: ConverterDomainFactoryOptions;

  constructor(options: ConverterDomainFactoryOptions) {
    this.#options = options;
  }

  domainName(vmi: { metadata?: { namespace?: string; name?: string } }): string {
    return domainNameOf({ metadata: vmi.metadata ?? {} });
  }

  async build(vmi: Vmi, options: BuildOptions): Promise<BuiltDomain> {
    try {
      // Before any file is made from the VMI's names (convertVmi checks again, being usable alone).
      refuseUnconfinedValues(vmi);
      const prepared = await prepareVolumes(vmi, {
        vmDir: options.vmDir,
        images: this.#options.images,
        podVolumes: options.podVolumes,
      });
      let definition: DomainDefinition;
      try {
        definition = convertVmi(vmi, prepared, {
          domainName: this.domainName(vmi),
          emulation: options.emulation,
          vncSocketPath: join(options.vmDir, VNC_SOCKET_NAME),
          agentSocketPath: join(options.vmDir, AGENT_SOCKET_NAME),
          passtSocketPath: join(options.vmDir, PASST_SOCKET_NAME),
          serialLogPath: join(options.vmDir, "serial.log"),
          efiFirmwareAvailable: this.#options.efiFirmwareAvailable,
        });
      } catch (error) {
        await closeOpenedDisks(prepared.disks);
        throw error;
      }
      const fdGroups = new Map(
        [...prepared.disks.values()].flatMap((disk) =>
          disk.opened ? [[disk.opened.fdGroup, disk.opened.file] as const] : [],
        ),
      );
      return { definition, fdGroups, release: () => closeOpenedDisks(prepared.disks) };
    } catch (error) {
      const pullFailure = imagePullFailure(error);
      if (pullFailure !== undefined) throw pullFailure;
      if (error instanceof VmiConversionError && !RETRYABLE_REASONS.has(error.reason)) {
        throw new VmiStartError(error.reason, error.message, { cause: error });
      }
      throw error;
    }
  }

  identify(definition: DomainDefinition): VmiIdentity | undefined {
    return vmiUidFromDomain(definition);
  }

  removeFiles(vmDir: string): Promise<void> {
    return removeVmFiles(vmDir);
  }
}

/** A pull that failed (retried with back-off, as the kubelet's) rather than an image that cannot work. */
function imagePullFailure(error: unknown): VmiImagePullError | undefined {
  if (!(error instanceof VmiConversionError)) return undefined;
  if (error.reason !== "ImagePullFailed" && error.reason !== "ErrImageNeverPull") return undefined;
  const source = error.cause instanceof ContainerDiskError ? error.cause : undefined;
  const reason = error.reason === "ImagePullFailed" ? "ErrImagePull" : "ErrImageNeverPull";
  return new VmiImagePullError(reason, source?.image ?? "", source?.message ?? error.message, {
    cause: error,
  });
}
