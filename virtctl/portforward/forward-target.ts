/**
 * `type/name[/namespace]`, the target of `virtctl port-forward`, `ssh` and `scp` (KubeVirt's
 * syntax and refusals, word for word, with what to write instead). A dot is part of the name:
 * KubeVirt dropped the old `type/name.namespace` reading in 1.7, since names may hold dots.
 */
import type { KubeVirtResource } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";

export type ForwardKind = "vm" | "vmi";

export interface ForwardTarget {
  readonly kind: ForwardKind;
  readonly name: string;
  /** Absent: the kubeconfig's (or -n's) namespace. */
  readonly namespace?: string;
}

const SYNTAX = "write type/name[/namespace], e.g. vm/my-vm or vmi/my-vm/my-namespace";

export function parseForwardTarget(argument: string): ForwardTarget {
  if (argument === "") throw refused("target cannot be empty");
  const parts = argument.split("/");
  if (parts.length === 1) throw refused("target must contain type and name separated by '/'");
  if (parts.length > 3) throw refused("target is not valid with more than two '/'");
  const [type = "", name = "", namespace] = parts;
  if (namespace === "") throw refused("namespace cannot be empty");
  const kind = kindOf(type);
  if (name === "") throw refused("name cannot be empty");
  return namespace === undefined ? { kind, name } : { kind, name, namespace };
}

export function resourceOfKind(
  kind: ForwardKind,
): Extract<KubeVirtResource, "virtualmachines" | "virtualmachineinstances"> {
  return kind === "vm" ? "virtualmachines" : "virtualmachineinstances";
}

function kindOf(type: string): ForwardKind {
  switch (type.toLowerCase()) {
    case "vm":
    case "vms":
    case "virtualmachine":
    case "virtualmachines":
      return "vm";
    case "vmi":
    case "vmis":
    case "virtualmachineinstance":
    case "virtualmachineinstances":
      return "vmi";
  }
  throw new CliError(`unsupported resource type '${type}': the type is vm or vmi (${SYNTAX})`);
}

function refused(message: string): CliError {
  return new CliError(`${message}: ${SYNTAX}`);
}
