// Runs the built importer (dist/cdi-importer/main.js) as its pod would: a process with CDI's variables and
// the node agent's mapping of /data, /source and /dev/termination-log to directories of the test.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const importerMain = fileURLToPath(new URL("../main.js", import.meta.url));

export interface ImporterPod {
  /** The test's directory. */
  readonly work: string;
  /** Host directory of /data. */
  readonly data: string;
  /** Host directory of /source. */
  readonly source: string;
  /** Host file of /dev/termination-log. */
  readonly terminationLog: string;
  env(variables: Record<string, string>): NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

export async function newImporterPod(): Promise<ImporterPod> {
  const work = await mkdtemp(join(tmpdir(), "cdi-importer-"));
  const data = join(work, "data");
  const source = join(work, "source");
  const terminationLog = join(work, "termination-log");
  await mkdir(data);
  await mkdir(source);
  await writeFile(terminationLog, "");
  const mounts = { "/data": data, "/source": source, "/dev/termination-log": terminationLog };
  return {
    work,
    data,
    source,
    terminationLog,
    env: (variables) => ({
      PATH: process.env.PATH,
      LOG_LEVEL: "warn",
      OWNER_UID: "dv-uid-1",
      IMPORTER_METRICS_PORT: "0",
      KUBEVIRT_TS_VOLUME_MOUNTS: JSON.stringify(mounts),
      ...variables,
    }),
    remove: () => rm(work, { recursive: true, force: true }),
  };
}

export interface ImporterExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly stdout: string;
}

export function startImporter(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  exited: Promise<ImporterExit>;
} {
  const child = spawn(process.execPath, [importerMain], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<ImporterExit>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal, stderr, stdout }));
  });
  return { child, exited };
}

export function runImporter(env: NodeJS.ProcessEnv): Promise<ImporterExit> {
  return startImporter(env).exited;
}

export async function terminationMessage(pod: ImporterPod): Promise<string> {
  return readFile(pod.terminationLog, "utf8");
}

/** A port free right now on this machine. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export async function qemuImg(...args: string[]): Promise<void> {
  await promisify(execFile)("qemu-img", args);
}

/** A raw image: `size` bytes, patterned data at a few places, zeros elsewhere (so it has holes). */
export function patternedDisk(size: number): Buffer {
  const disk = Buffer.alloc(size);
  for (const offset of [0, Math.floor(size / 3), size - 8192]) {
    for (let index = 0; index < 8192; index++) disk[offset + index] = (index * 7 + offset) & 0xff;
  }
  return disk;
}
