import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import {
  type DevApiServer,
  type DevApiServerOptions,
  startDevApiServer,
} from "../../dev-cluster/apiserver/dev-api-server.js";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestApiServer {
  server: DevApiServer;
  dataDir: string;
  kubeconfigPath: string;
  /** Runs the machine's real kubectl against this server. */
  kubectl(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<CommandResult>;
  /** A client-node KubeConfig for this server. */
  kubeConfig(): KubeConfig;
  /** Stops the server, keeping the data directory (for restart tests). */
  stop(): Promise<void>;
  /** Starts the server again on the same data directory and port (options replace those given at start). */
  restart(options?: RestartOptions): Promise<void>;
  /** Stops the server and removes the data directory. */
  close(): Promise<void>;
}

export type RestartOptions = Pick<
  DevApiServerOptions,
  "historySize" | "podLogs" | "servingIps" | "servingHosts" | "advertiseAddress"
>;

export interface TestApiServerOptions
  extends Pick<DevApiServerOptions, "podLogs" | "servingIps" | "servingHosts" | "advertiseAddress"> {
  /** Keep objects in memory only. Default true; persistence tests pass false. */
  inMemory?: boolean;
}

/** A logger for what tests run in-process: silent unless $TEST_LOG_LEVEL says otherwise. */
export const quietLog = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/**
 * The kubeconfig of a real API server the conformance tests run against instead of a dev API
 * server of their own (scripts/conformance-real-k8s.mjs sets it); unset, each test starts one.
 */
export const REAL_API_SERVER_KUBECONFIG = process.env.KUBEVIRT_TS_REAL_KUBECONFIG;

/**
 * For a test that cannot run against the real API server (it restarts the dev one, or checks what
 * Kubernetes 1.20 does not have): under a real one it is skipped with `why`, which is then listed
 * as a difference (docs/REAL-KUBERNETES.md); returns whether it was. Against the dev API server
 * (`npm test`) nothing is ever skipped.
 */
export function skippedOnRealApiServer(context: TestContext, why: string): boolean {
  if (!REAL_API_SERVER_KUBECONFIG) return false;
  context.skip(why);
  return true;
}

/** Starts a dev-cluster API server in a fresh temporary directory, on a free port. */
export async function startTestApiServer(options: TestApiServerOptions = {}): Promise<TestApiServer> {
  if (REAL_API_SERVER_KUBECONFIG) return realApiServer(REAL_API_SERVER_KUBECONFIG);
  const dataDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-apiserver-"));
  const kubeconfigPath = join(dataDir, "kubeconfig");
  const { inMemory = true, ...extra } = options;
  let server = await startDevApiServer({
    dataDir,
    port: 0,
    kubeconfigPath,
    inMemory,
    log: quietLog,
    ...extra,
  });
  const port = server.port;
  const fixture: TestApiServer = {
    get server() {
      return server;
    },
    dataDir,
    kubeconfigPath,
    ...clientsOf(kubeconfigPath, dataDir),
    async stop() {
      await server.close();
    },
    async restart(restartOptions = {}) {
      server = await startDevApiServer({
        dataDir,
        port,
        kubeconfigPath,
        inMemory,
        log: quietLog,
        ...extra,
        ...restartOptions,
      });
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** kubectl and client-node for the server of `kubeconfigPath`. */
function clientsOf(kubeconfigPath: string, dataDir: string): Pick<TestApiServer, "kubectl" | "kubeConfig"> {
  return {
    kubectl: (args, runOptions = {}) => runKubectl(kubeconfigPath, dataDir, args, runOptions),
    kubeConfig() {
      const config = new KubeConfig();
      config.loadFromFile(kubeconfigPath);
      return config;
    },
  };
}

/** The same fixture over a real API server: kubectl and client-node only, no restarts. */
async function realApiServer(kubeconfigPath: string): Promise<TestApiServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-real-apiserver-"));
  const devOnly = (what: string) => () => {
    throw new Error(`${what} needs the dev API server: this test runs against a real one`);
  };
  return {
    get server(): DevApiServer {
      return devOnly("the server object")();
    },
    dataDir,
    kubeconfigPath,
    ...clientsOf(kubeconfigPath, dataDir),
    stop: async () => devOnly("stop")(),
    restart: async () => devOnly("restart")(),
    async close() {
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function runKubectl(
  kubeconfigPath: string,
  dataDir: string,
  args: string[],
  options: { input?: string; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = execFile(
      "kubectl",
      ["--kubeconfig", kubeconfigPath, "--cache-dir", join(dataDir, "kubectl-cache"), ...args],
      { timeout: options.timeoutMs ?? 60_000, env: { ...process.env, KUBECONFIG: kubeconfigPath } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
}
