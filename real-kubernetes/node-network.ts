/**
 * The node's side of the network, set up before the kubelet and undone at the end:
 * - the node's address on a bridge of its own with no ports (this kernel has no dummy driver);
 * - the service range routed into that bridge: a packet kube-proxy did not rewrite ends there
 *   instead of following the default route out of the machine;
 * - forwarding, which kube-proxy's DNAT needs between two pods on the CNI bridge (a pod reaching a
 *   Service whose endpoint is another pod), confined by an nftables chain to that bridge: when
 *   this turns forwarding on, nothing else is forwarded; when it was on already, nothing crosses
 *   between the pod bridge and another interface. The CNI bridge is created with no IP masquerade.
 */
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { NODE_BRIDGE, NODE_IP, POD_BRIDGE, SERVICE_CIDR } from "./layout.js";

const run = promisify(execFile);
const FORWARDING = "/proc/sys/net/ipv4/ip_forward";
export const NFT_TABLE = "kubevirt-ts-node";

export class NodeNetworkError extends Error {
  override readonly name = "NodeNetworkError";
}

async function ip(args: readonly string[]): Promise<void> {
  try {
    await run("ip", args);
  } catch (error) {
    throw new NodeNetworkError(`ip ${args.join(" ")} failed: ${stderrOf(error)}`, { cause: error });
  }
}

function stderrOf(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr;
  return (stderr ?? String(error)).trim();
}

async function linkExists(name: string): Promise<boolean> {
  try {
    await run("ip", ["link", "show", "dev", name]);
    return true;
  } catch {
    return false;
  }
}

/** `stateFile` remembers whether forwarding was off before, so that teardown restores it. */
export async function setUpNodeNetwork(stateFile: string): Promise<void> {
  if (!(await linkExists(NODE_BRIDGE))) await ip(["link", "add", NODE_BRIDGE, "type", "bridge"]);
  await ip(["addr", "replace", `${NODE_IP}/32`, "dev", NODE_BRIDGE]);
  await ip(["link", "set", NODE_BRIDGE, "up"]);
  await ip(["route", "replace", SERVICE_CIDR, "dev", NODE_BRIDGE]);

  const previous = await readState(stateFile);
  const wasOn = previous?.forwardingWasOn ?? (await readFile(FORWARDING, "utf8")).trim() === "1";
  await writeFile(stateFile, `${JSON.stringify({ forwardingWasOn: wasOn })}\n`);
  await nft(forwardGuard(wasOn));
  if (!wasOn) await writeFile(FORWARDING, "1\n");
}

/** The nftables table confining forwarding (replaced whole on every start). */
export function forwardGuard(forwardingWasOn: boolean): string {
  const rules = forwardingWasOn
    ? [
        `    iifname "${POD_BRIDGE}" oifname != "${POD_BRIDGE}" drop`,
        `    oifname "${POD_BRIDGE}" iifname != "${POD_BRIDGE}" drop`,
      ]
    : [`    iifname "${POD_BRIDGE}" oifname "${POD_BRIDGE}" accept`];
  return [
    `table inet ${NFT_TABLE}`,
    `delete table inet ${NFT_TABLE}`,
    `table inet ${NFT_TABLE} {`,
    "  chain forward {",
    `    type filter hook forward priority filter - 10; policy ${forwardingWasOn ? "accept" : "drop"};`,
    ...rules,
    "  }",
    "}",
    "",
  ].join("\n");
}

export async function tearDownNodeNetwork(stateFile: string): Promise<void> {
  const state = await readState(stateFile);
  if (state && !state.forwardingWasOn) await writeFile(FORWARDING, "0\n");
  await nft(`table inet ${NFT_TABLE}\ndelete table inet ${NFT_TABLE}\n`).catch(() => {});
  await run("ip", ["route", "del", SERVICE_CIDR, "dev", NODE_BRIDGE]).catch(() => {});
  for (const link of [POD_BRIDGE, NODE_BRIDGE]) await run("ip", ["link", "del", link]).catch(() => {});
  await rm(stateFile, { force: true });
}

async function readState(stateFile: string): Promise<{ forwardingWasOn: boolean } | undefined> {
  try {
    return JSON.parse(await readFile(stateFile, "utf8")) as { forwardingWasOn: boolean };
  } catch {
    return undefined;
  }
}

async function nft(script: string): Promise<void> {
  await new Promise<void>((resolveRun, reject) => {
    const child = execFile("nft", ["-f", "-"], (error, _stdout, stderr) =>
      error
        ? reject(new NodeNetworkError(`nft -f failed: ${stderr.trim() || error.message}`, { cause: error }))
        : resolveRun(),
    );
    child.stdin?.end(script);
  });
}
