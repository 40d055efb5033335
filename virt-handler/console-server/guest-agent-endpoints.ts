// guestosinfo, userlist and filesystemlist: what the VMI's guest agent says now, asked through
// libvirt (virDomainGetGuestInfo, and guest-info for the agent's version), in KubeVirt's JSON shapes
// (v1.VirtualMachineInstanceGuestAgentInfo, VirtualMachineInstanceGuestOSUserList,
// VirtualMachineInstanceFileSystemList).
import {
  ErrorCode,
  type GuestFilesystem,
  type GuestInfo,
  GuestInfoTypes,
  type GuestUser,
  LibvirtError,
} from "../../libvirt/index.js";
import { domainFailure } from "./domain-errors.js";
import { HttpError } from "./http-status.js";
import type { LocatedDomain } from "./vmi-domain-locator.js";

export type GuestAgentSubresource = "guestosinfo" | "userlist" | "filesystemlist";

const NOT_CONNECTED = "VMI does not have guest agent connected";

function fileSystem(fs: GuestFilesystem) {
  return {
    diskName: fs.name,
    mountPoint: fs.mountPoint,
    fileSystemType: fs.fsType,
    usedBytes: fs.usedBytes ?? 0,
    totalBytes: fs.totalBytes ?? 0,
    disk: fs.disks.map((disk) => ({ ...(disk.serial ? { serial: disk.serial } : {}) })),
  };
}

function user(entry: GuestUser) {
  return {
    userName: entry.name,
    ...(entry.domain ? { domain: entry.domain } : {}),
    // KubeVirt reports seconds since the epoch, as a float.
    ...(entry.loginTimeMs !== undefined ? { loginTime: entry.loginTimeMs / 1000 } : {}),
  };
}

async function agentVersion(located: LocatedDomain): Promise<{ version?: string; commands: string[] }> {
  try {
    const reply = JSON.parse(await located.handle.agentCommand('{"execute":"guest-info"}', 5)) as {
      return?: { version?: string; supported_commands?: { name: string; enabled: boolean }[] };
    };
    const commands = (reply.return?.supported_commands ?? []).filter((command) => command.enabled);
    return {
      ...(reply.return?.version ? { version: reply.return.version } : {}),
      commands: commands.map((c) => c.name),
    };
  } catch {
    return { commands: [] }; // older libvirt without the passthrough: the rest still answers
  }
}

function guestAgentInfo(info: GuestInfo, agent: { version?: string; commands: string[] }) {
  const zone = info.timezone;
  return {
    ...(agent.version ? { guestAgentVersion: agent.version } : {}),
    supportedCommands: agent.commands.map((name) => ({ name, enabled: true })),
    ...(info.hostname ? { hostname: info.hostname } : {}),
    os: { ...(info.os ?? {}) },
    ...(zone ? { timezone: `${zone.name ?? ""}, ${zone.offsetSeconds ?? 0}` } : {}),
    userList: (info.users ?? []).map(user),
    fsInfo: { disks: (info.filesystems ?? []).map(fileSystem) },
  };
}

/** The subresource's JSON body; a 409 when no agent answers. */
export async function guestAgentAnswer(
  located: LocatedDomain,
  subresource: GuestAgentSubresource,
): Promise<unknown> {
  try {
    switch (subresource) {
      case "userlist": {
        const info = await located.handle.guestInfo(GuestInfoTypes.Users);
        return { metadata: {}, items: (info.users ?? []).map(user) };
      }
      case "filesystemlist": {
        const info = await located.handle.guestInfo(GuestInfoTypes.Filesystem);
        return { metadata: {}, items: (info.filesystems ?? []).map(fileSystem) };
      }
      case "guestosinfo": {
        const info = await located.handle.guestInfo(GuestInfoTypes.All);
        return guestAgentInfo(info, await agentVersion(located));
      }
    }
  } catch (error) {
    if (
      LibvirtError.is(
        error,
        ErrorCode.AgentUnresponsive,
        ErrorCode.AgentUnsynced,
        ErrorCode.OperationUnsupported,
      )
    ) {
      throw new HttpError(409, "Conflict", NOT_CONNECTED, { cause: error });
    }
    throw domainFailure(`ask the guest agent for ${subresource}`, error);
  }
}
