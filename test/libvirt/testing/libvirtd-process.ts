// Stopping the libvirtd that scripts/setup-host.mjs started (under tini, pid in /run/libvirtd-tini.pid),
// and starting it again by running setup-host itself, so the daemon comes back exactly as CI starts it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Connection } from "../../../libvirt/index.js";
import { ListDomainsFlags } from "../../../libvirt/index.js";
import { runCommand } from "../../guest/run-command.js";
import { waitUntil } from "./wait-until.js";

const TINI_PIDFILE = "/run/libvirtd-tini.pid";

export interface LibvirtdUnderTini {
  readonly tiniPid: number;
  readonly libvirtdPid: number;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  const stat = readProc(pid, "stat");
  if (stat === undefined) return false;
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

function command(pid: number): string {
  return (readProc(pid, "comm") ?? "").trim();
}

function parentOf(pid: number): number | undefined {
  const stat = readProc(pid, "stat");
  const parent = stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
  return parent === undefined ? undefined : Number(parent);
}

/**
 * The libvirtd that setup-host started, or why there is none we may restart: a libvirtd started some other
 * way (by an init system, by hand) is not ours to stop.
 */
export function findLibvirtdUnderTini(): LibvirtdUnderTini | string {
  if (!existsSync(TINI_PIDFILE)) return `${TINI_PIDFILE} is missing: libvirtd was not started by setup-host`;
  const tiniPid = Number(readFileSync(TINI_PIDFILE, "utf8").trim());
  if (!Number.isInteger(tiniPid) || tiniPid <= 0 || !isRunning(tiniPid) || command(tiniPid) !== "tini") {
    return `${TINI_PIDFILE} does not name a running tini`;
  }
  const children = (readProc(tiniPid, `task/${tiniPid}/children`) ?? "").trim().split(/\s+/).map(Number);
  const libvirtdPid = children.find((pid) => command(pid) === "libvirtd");
  if (libvirtdPid === undefined) return `tini ${tiniPid} (${TINI_PIDFILE}) has no libvirtd child`;
  return { tiniPid, libvirtdPid };
}

/** SIGTERM to tini, which passes it on to libvirtd; resolves once both have exited. */
export async function stopLibvirtd(daemon: LibvirtdUnderTini, timeoutMs: number): Promise<void> {
  process.kill(daemon.tiniPid, "SIGTERM");
  await waitUntil(
    () => !isRunning(daemon.libvirtdPid) && !isRunning(daemon.tiniPid),
    timeoutMs,
    `libvirtd (pid ${daemon.libvirtdPid}) and tini (pid ${daemon.tiniPid}) to exit`,
  );
}

function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("cannot find the repository root (no package.json above this module)");
    dir = parent;
  }
  return dir;
}

/** Runs `node scripts/setup-host.mjs`, which starts libvirtd under tini when none runs; resolves with its report. */
export async function runSetupHost(): Promise<string> {
  const { stdout } = await runCommand(process.execPath, [
    join(repositoryRoot(), "scripts", "setup-host.mjs"),
  ]);
  return stdout;
}

/** The pid of the QEMU process libvirt runs for `domainName`. */
export function qemuPidOf(domainName: string): number {
  const file = `/run/libvirt/qemu/${domainName}.pid`;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${file} holds no pid`);
  return pid;
}

/** The name of a process's parent ("tini", "init", …), for messages. */
export function parentCommand(pid: number): string {
  const parent = parentOf(pid);
  return parent === undefined ? "unknown" : `${command(parent) || "?"} (${parent})`;
}

/** The pids of the processes connected to libvirtd (`virt-admin`, through libvirtd's admin socket). */
export async function libvirtdClientPids(): Promise<number[]> {
  const { stdout: list } = await runCommand("virt-admin", ["srv-clients-list", "libvirtd"]);
  const ids = list
    .split("\n")
    .map((line) => /^\s*(\d+)\s/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
  const pids: number[] = [];
  for (const id of ids) {
    // A client may disconnect between the two calls.
    const info = await runCommand("virt-admin", ["client-info", "libvirtd", id]).catch(() => undefined);
    const pid = info && /^unix_process_id\s*:\s*(\d+)/m.exec(info.stdout)?.[1];
    if (pid) pids.push(Number(pid));
  }
  return pids;
}

/** Other processes connected to libvirtd, and active domains other than `ownName`. */
async function othersUsingLibvirtd(connection: Connection, ownName: string): Promise<string[]> {
  const others: string[] = [];
  for (const domain of connection.listAllDomains(ListDomainsFlags.Active)) {
    if (domain.name !== ownName) others.push(`domain ${domain.name}`);
    domain.free();
  }
  for (const pid of await libvirtdClientPids()) {
    if (pid !== process.pid) others.push(`client pid ${pid} (${command(pid) || "gone"})`);
  }
  return others;
}

/**
 * Waits until libvirtd serves nobody but this process and runs no domain but `ownName`: anyone else
 * (another test in progress, most likely) would have its connection and console streams cut by a restart.
 * It narrows the window; it cannot close it (someone may connect right after the check).
 */
export async function waitUntilLibvirtdIsOurs(
  connection: Connection,
  ownName: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const others = await othersUsingLibvirtd(connection, ownName);
    if (others.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`libvirtd is still in use by others after ${timeoutMs} ms: ${others.join(", ")}`);
    }
    await sleep(200);
  }
}
