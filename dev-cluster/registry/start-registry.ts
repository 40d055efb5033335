// Runs Debian's docker-registry (CNCF distribution 2.8) as a child process: the dev cluster's
// image registry, and the real registry the image tests push to and pull from.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { freePort } from "./free-port.js";
import { type HtpasswdUser, writeHtpasswdFile } from "./htpasswd-file.js";
import { holdsListeningSocket } from "./listening-socket.js";
import { registryConfigYaml } from "./registry-config.js";
import { forwardRegistryOutput } from "./registry-log.js";

export interface RegistryOptions {
  /** Holds config.yml, the htpasswd file, the store (storage/) and `address` once it answers. */
  readonly dataDir: string;
  /** host:port; port 0 picks a free port. */
  readonly address: string;
  /** Require HTTP Basic with this user for every request. */
  readonly htpasswd?: HtpasswdUser;
  readonly log: Logger;
  /** Default 15 s. */
  readonly readyTimeoutMs?: number;
}

export interface RunningRegistry {
  /** host:port it listens on (the picked port when asked for port 0). */
  readonly address: string;
  /** http://host:port */
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

export class RegistryStartError extends Error {
  override readonly name = "RegistryStartError";
  constructor(
    readonly reason: "BadAddress" | "NotInstalled" | "Exited" | "NotReady",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Taking a free port and binding it are two steps; another process may win the port between them. */
const PORT_ATTEMPTS = 3;

export async function startRegistry(options: RegistryOptions): Promise<RunningRegistry> {
  const { host, port } = splitAddress(options.address);
  const dataDir = resolve(options.dataDir);
  await mkdir(join(dataDir, "storage"), { recursive: true });
  // A previous run's address is not this one's: the file appears again once this registry answers.
  await rm(join(dataDir, "address"), { force: true });
  const htpasswdPath = options.htpasswd ? join(dataDir, "htpasswd") : undefined;
  if (htpasswdPath && options.htpasswd) await writeHtpasswdFile(htpasswdPath, [options.htpasswd]);
  for (let attempt = 1; ; attempt++) {
    const address = `${host}:${port === 0 ? await freePort(host) : port}`;
    try {
      const configPath = join(dataDir, "config.yml");
      const httpSecret = randomBytes(24).toString("hex");
      const storageDir = join(dataDir, "storage");
      await writeFile(configPath, registryConfigYaml({ storageDir, address, httpSecret, htpasswdPath }));
      const registry = await runUntilReady(configPath, address, options);
      await writeFile(join(dataDir, "address"), `${address}\n`);
      return registry;
    } catch (error) {
      const lostPortRace =
        port === 0 && error instanceof RegistryStartError && /address already in use/.test(error.message);
      if (!lostPortRace || attempt === PORT_ATTEMPTS) throw error;
      options.log.warn({ address }, "picked port was taken before the registry bound it; picking another");
    }
  }
}

function splitAddress(address: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(address);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match?.[1] || !(port >= 0 && port <= 65535)) {
    throw new RegistryStartError("BadAddress", `registry address ${address}: expected host:port`);
  }
  return { host: match[1].replace(/^\[(.*)\]$/, "$1"), port };
}

async function runUntilReady(configPath: string, address: string, options: RegistryOptions) {
  const port = splitAddress(address).port;
  // setpriv --pdeathsig: the registry gets SIGTERM when the dev cluster dies, even by SIGKILL.
  const child = spawn("setpriv", ["--pdeathsig", "SIGTERM", "--", "docker-registry", "serve", configPath], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = forwardRegistryOutput(child, options.log);
  const exited = new Promise<string>((resolveExit) => {
    child.once("exit", (code, signal) => resolveExit(`exited with ${signal ?? code}`));
    child.once("error", (error) => resolveExit(`could not start: ${error.message}`));
  });
  const url = `http://${address}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 15_000);
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (running && Date.now() < deadline) {
    const status = await probe(`${url}/v2/`);
    // 401 is an answer too: an htpasswd registry is up but wants credentials.
    if ((status === 200 || status === 401) && (await holdsListeningSocket(child.pid ?? 0, port))) {
      options.log.info({ address, pid: child.pid, auth: options.htpasswd !== undefined }, "registry is up");
      return running ? runningRegistry(child, address, exited) : failed("Exited", await exited, output);
    }
    await sleep(50);
  }
  if (!running) return failed(/ENOENT/.test(await exited) ? "NotInstalled" : "Exited", await exited, output);
  child.kill("SIGKILL");
  return failed("NotReady", `did not answer GET /v2/ at ${url} in time`, output);
}

function failed(reason: RegistryStartError["reason"], what: string, output: string[]): never {
  const tail = output.slice(-5).join("\n");
  const hint = reason === "NotInstalled" ? " (install Debian's docker-registry: npm run setup-host)" : "";
  throw new RegistryStartError(reason, `docker-registry ${what}${hint}${tail ? `:\n${tail}` : ""}`);
}

function runningRegistry(child: ChildProcess, address: string, exited: Promise<string>): RunningRegistry {
  return {
    address,
    url: `http://${address}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

function probe(url: string): Promise<number> {
  return new Promise((resolveStatus) => {
    const req = request(url, { method: "GET", timeout: 1_000 }, (res) => {
      res.resume();
      resolveStatus(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolveStatus(0));
    req.end();
  });
}
