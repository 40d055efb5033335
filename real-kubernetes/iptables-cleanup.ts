/**
 * The kubelet's iptables chains (KUBE-FIREWALL, KUBE-MARK-DROP, KUBE-POSTROUTING, the canaries)
 * stay after it stops; `kube-proxy --cleanup` removes only kube-proxy's. Once both are stopped,
 * the rules that jump to a KUBE- chain are deleted from the built-in chains, then the KUBE- chains.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const TABLES = ["filter", "nat", "mangle"] as const;

/** `iptables -S` words, with double-quoted words (comments) kept whole. */
export function ruleWords(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

/** What `iptables -t TABLE -S` shows that must go: jumps into KUBE- chains, and those chains. */
export function kubernetesRules(listing: string): { jumps: string[][]; chains: string[] } {
  const jumps: string[][] = [];
  const chains: string[] = [];
  for (const line of listing.split("\n")) {
    const words = ruleWords(line);
    if (words[0] === "-N" && words[1]?.startsWith("KUBE-")) chains.push(words[1]);
    const target = words[words.indexOf("-j") + 1];
    if (
      words[0] === "-A" &&
      !words[1]?.startsWith("KUBE-") &&
      words.includes("-j") &&
      target?.startsWith("KUBE-")
    ) {
      jumps.push(words.slice(1));
    }
  }
  return { jumps, chains };
}

export async function removeKubernetesChains(): Promise<void> {
  for (const table of TABLES) {
    const listing = await run("iptables", ["-t", table, "-S"]).then(
      (result) => result.stdout,
      () => "",
    );
    const { jumps, chains } = kubernetesRules(listing);
    for (const rule of jumps) await run("iptables", ["-t", table, "-D", ...rule]).catch(() => {});
    for (const chain of chains) await run("iptables", ["-t", table, "-F", chain]).catch(() => {});
    for (const chain of chains) await run("iptables", ["-t", table, "-X", chain]).catch(() => {});
  }
}
