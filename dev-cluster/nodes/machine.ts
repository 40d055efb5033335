import { readFile, statfs } from "node:fs/promises";
import { arch, availableParallelism, hostname, networkInterfaces, release, totalmem } from "node:os";

/** What kubelet reads from the machine it runs on (cadvisor's machine info, os-release, uname). */
export interface MachineFacts {
  hostname: string;
  cpuCores: number;
  memoryBytes: number;
  /** Size of the filesystem holding the node's data directory. */
  ephemeralStorageBytes: number;
  /** The first non-loopback IPv4 address, else 127.0.0.1. */
  internalIP: string;
  kernelVersion: string;
  osImage: string;
  /** GOARCH spelling: amd64, arm64. */
  architecture: string;
  machineID: string;
  bootID: string;
}

const GO_ARCH: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64", arm: "arm", ia32: "386" };

export function goArchitecture(nodeArch: string = arch()): string {
  return GO_ARCH[nodeArch] ?? nodeArch;
}

async function firstLine(path: string): Promise<string> {
  try {
    return (await readFile(path, "utf8")).split("\n")[0]?.trim() ?? "";
  } catch {
    // Not every machine has it (containers, other systems): kubelet reports "" too.
    return "";
  }
}

async function osImage(): Promise<string> {
  try {
    const text = await readFile("/etc/os-release", "utf8");
    const match = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text);
    return match?.[1] ?? "Linux";
  } catch {
    return "Linux";
  }
}

function firstIPv4(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    const address = addresses?.find((entry) => entry.family === "IPv4" && !entry.internal);
    if (address) return address.address;
  }
  return "127.0.0.1";
}

async function filesystemBytes(path: string): Promise<number> {
  const stats = await statfs(path);
  return stats.blocks * stats.bsize;
}

/** Reads the machine's facts; `storagePath` is where pods' ephemeral storage would live. */
export async function readMachineFacts(storagePath = "/"): Promise<MachineFacts> {
  return {
    hostname: hostname().toLowerCase(),
    cpuCores: availableParallelism(),
    memoryBytes: totalmem(),
    ephemeralStorageBytes: await filesystemBytes(storagePath),
    internalIP: firstIPv4(),
    kernelVersion: release(),
    osImage: await osImage(),
    architecture: goArchitecture(),
    machineID: await firstLine("/etc/machine-id"),
    bootID: await firstLine("/proc/sys/kernel/random/boot_id"),
  };
}
