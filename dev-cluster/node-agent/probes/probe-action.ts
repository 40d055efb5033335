import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import type { Frozen } from "../../../runtime/index.js";
import type { Container, Probe } from "../kinds.js";

export interface ProbeOutcome {
  success: boolean;
  /** Why it failed, worded as kubelet words it. */
  message?: string;
}

/** Where the probe runs: the pod's address, and for exec probes the container's command context. */
export interface ProbeTarget {
  podIP: string;
  container: Frozen<Container>;
  execPrefix: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
}

/** Runs one probe attempt: httpGet, tcpSocket or exec (grpc is not supported). */
export function runProbe(probe: Frozen<Probe>, target: ProbeTarget): Promise<ProbeOutcome> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port, target.container);
    if (typeof port === "string") return Promise.resolve({ success: false, message: port });
    return httpProbe({
      scheme: probe.httpGet.scheme ?? "HTTP",
      host: probe.httpGet.host || target.podIP,
      port,
      path: probe.httpGet.path ?? "/",
      headers: probe.httpGet.httpHeaders ?? [],
      timeoutMs,
    });
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port, target.container);
    if (typeof port === "string") return Promise.resolve({ success: false, message: port });
    return tcpProbe(probe.tcpSocket.host || target.podIP, port, timeoutMs);
  }
  if (probe.exec?.command) return execProbe(probe.exec.command, target, timeoutMs);
  return Promise.resolve({ success: false, message: "the probe has no httpGet, tcpSocket or exec action" });
}

/** A port number, or a container port name; a string answer is the error. */
function resolvePort(port: number | string, container: Frozen<Container>): number | string {
  if (typeof port === "number") return port;
  if (/^\d+$/.test(port)) return Number(port);
  const named = container.ports?.find((candidate) => candidate.name === port);
  return named ? named.containerPort : `couldn't find port: ${port} in ${container.name}`;
}

interface HttpProbeRequest {
  scheme: string;
  host: string;
  port: number;
  path: string;
  headers: readonly { readonly name: string; readonly value: string }[];
  timeoutMs: number;
}

function httpProbe(probe: HttpProbeRequest): Promise<ProbeOutcome> {
  const secure = probe.scheme.toUpperCase() === "HTTPS";
  const url = `${secure ? "https" : "http"}://${probe.host}:${probe.port}${probe.path}`;
  const headers: Record<string, string> = { "User-Agent": "kube-probe/1.32", Accept: "*/*" };
  for (const header of probe.headers) headers[header.name] = header.value;
  return new Promise((resolve) => {
    const send = secure ? httpsRequest : httpRequest;
    const request = send(
      url,
      { headers, timeout: probe.timeoutMs, rejectUnauthorized: false },
      (response) => {
        response.resume();
        const code = response.statusCode ?? 0;
        if (code >= 200 && code < 400) resolve({ success: true });
        else resolve({ success: false, message: `HTTP probe failed with statuscode: ${code}` });
      },
    );
    request.on("timeout", () =>
      request.destroy(
        new Error("context deadline exceeded (Client.Timeout exceeded while awaiting headers)"),
      ),
    );
    request.on("error", (error) => resolve({ success: false, message: `Get "${url}": ${error.message}` }));
    request.end();
  });
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once("connect", () => {
      socket.destroy();
      resolve({ success: true });
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve({ success: false, message: `dial tcp ${host}:${port}: i/o timeout` });
    });
    socket.once("error", (error) =>
      resolve({ success: false, message: `dial tcp ${host}:${port}: ${error.message}` }),
    );
  });
}

function execProbe(
  command: readonly string[],
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const argv = [...target.execPrefix, ...command];
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(argv[0] ?? "", argv.slice(1), {
      env: { ...target.env },
      cwd: target.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
    });
    const collect = (chunk: Buffer): void => {
      if (output.length < 10_240) output += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", (error) => resolve({ success: false, message: error.message }));
    child.once("close", (code, signal) => {
      if (code === 0) resolve({ success: true });
      else if (signal) resolve({ success: false, message: `command timed out after ${timeoutMs / 1000}s` });
      else resolve({ success: false, message: output.trim() || `command exited with ${code}` });
    });
  });
}
