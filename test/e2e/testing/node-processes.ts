// The processes the dev cluster's node agent runs for one stack's node (virt-controller,
// virt-handler, launcher pods), their memory, and the last-resort cleanup of what a failed run
// leaves on the machine.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  linkNames,
  type NodeProcess,
  networkNamespaces,
  processesOfNode,
} from "../../dev-cluster/testing/host-resources.js";

export interface StackNode {
  readonly nodeName: string;
  readonly dataDir: string;
  readonly bridge: string;
}

/**
 * A container's own process, not the agent's `/bin/sh` wrapper around it (whose command line
 * carries the same program as an argument).
 */
function isContainerProgram(process: NodeProcess): boolean {
  return process.argv[0] !== "/bin/sh";
}

/** The pids of `dist/<component>/main.js` processes of the stack's node (one, unless it restarts). */
export function componentPids(
  node: StackNode,
  component: "virt-handler" | "virt-controller" | "virt-operator",
): number[] {
  const main = `/${component}/main.js`;
  return processesOfNode(node.nodeName, node.dataDir)
    .filter((p) => isContainerProgram(p) && (p.argv[1] ?? "").endsWith(main))
    .map((p) => p.pid);
}

/** The pid of a launcher pod's waiting process (`sleep infinity`), found by the pod's uid. */
export function launcherPid(node: StackNode, podUid: string): number | undefined {
  return processesOfNode(node.nodeName, node.dataDir).find(
    (p) => isContainerProgram(p) && p.env.get("KUBEVIRT_TS_POD_UID") === podUid,
  )?.pid;
}

/** Resident memory of a process (VmRSS), in bytes. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(match[1]) * 1024;
}

/** The node's pod network namespaces (`<bridge>-<pod uid>`, see the node agent). */
export function podNamespacesOf(node: StackNode): string[] {
  return networkNamespaces().filter((name) => name.startsWith(`${node.bridge}-`));
}

/** What is left of the node on this machine: live processes, pod network namespaces, the bridge. */
export function nodeLeftovers(node: StackNode): string[] {
  return [
    ...processesOfNode(node.nodeName, node.dataDir).map((p) => `process ${p.pid} (${p.argv.join(" ")})`),
    ...podNamespacesOf(node).map((name) => `netns ${name}`),
    ...(linkNames().includes(node.bridge) ? [`bridge ${node.bridge}`] : []),
  ];
}

/** Removes whatever the node left (after the stack was stopped); returns what it removed. */
export function removeNodeLeftovers(node: StackNode): string[] {
  const removed: string[] = [];
  for (const { pid, argv } of processesOfNode(node.nodeName, node.dataDir)) {
    try {
      process.kill(pid, "SIGKILL");
      removed.push(`process ${pid} (${argv.join(" ")})`);
    } catch {
      // ended meanwhile
    }
  }
  for (const name of podNamespacesOf(node)) {
    execFileSync("ip", ["netns", "del", name]);
    removed.push(`netns ${name}`);
  }
  if (linkNames().includes(node.bridge)) {
    execFileSync("ip", ["link", "del", node.bridge]);
    removed.push(`bridge ${node.bridge}`);
  }
  return removed;
}
