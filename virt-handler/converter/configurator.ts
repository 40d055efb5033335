// The converter's unit of work: a configurator adds one concern (compute, storage, network, ...) to the
// domain being built, reading only the VMI, the prepared volumes and the options. convertVmi() applies
// them in order; a new concern (the pod network through passt, say) is a new configurator.
import type { VirtualMachineInstance, VirtualMachineInstanceSpec } from "../../api/index.js";
import type { DomainDefinition } from "../../libvirt/domain-xml/index.js";
import type { PreparedVolumes } from "../storage/prepare-volumes.js";

export interface ConversionOptions {
  /** The libvirt domain name (domainNameOf(vmi)). */
  domainName: string;
  /** No usable KVM: run under TCG (domain type "qemu") with a CPU model TCG can emulate. */
  emulation: boolean;
  /** Where QEMU's VNC server listens (a unix socket). */
  vncSocketPath: string;
  /** QEMU's end of the guest agent channel; default `agent.sock` beside the VNC socket (the VM's directory). */
  agentSocketPath?: string;
  /** The UNIX socket of the VM's passt (in the launcher pod), for a passt interface. */
  passtSocketPath?: string;
  /** Also write the serial console's output to this file. */
  serialLogPath?: string;
  /** Whether OVMF (UEFI firmware for QEMU) is installed; EFI VMIs are refused without it. Default false. */
  efiFirmwareAvailable?: boolean;
}

/** Who the domain belongs to (from the VMI's metadata, checked once). */
export interface VmiIdentity {
  uid: string;
  name: string;
  namespace: string;
}

export interface ConversionInput {
  vmi: VirtualMachineInstance;
  spec: VirtualMachineInstanceSpec;
  identity: VmiIdentity;
  prepared: PreparedVolumes;
  options: ConversionOptions;
}

export type Configurator = (domain: DomainDefinition, input: ConversionInput) => void;
